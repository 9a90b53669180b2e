/** Browser entry of the portal: global styles (Amplify UI's sheets the portal uses, then its own) + start-up (see `app/bootstrap.tsx`). */
import './shared/ui/amplify-ui.css';
import './shared/ui/styles.css';
// The prerendered sign-in form's rules (web/build/signin-prerender.ts).
import 'virtual:signin-prerender.css';
import { bootstrap } from './app/bootstrap';

const container = document.getElementById('root');
if (container) void bootstrap(container);
