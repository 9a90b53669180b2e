/** Browser entry of the portal: global styles + start-up (see `app/bootstrap.tsx`). */
import '@aws-amplify/ui-react/styles.css';
import './shared/ui/styles.css';
import { bootstrap } from './app/bootstrap';

const container = document.getElementById('root');
if (container) void bootstrap(container);
