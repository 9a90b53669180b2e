/** English texts of shared actions (section `actions.*`; same keys as `../es/actions.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const actions: Catalogue['actions'] = {
  cancel: 'Cancel',
  saving: 'Saving…',
  saveChanges: 'Save changes',
  creating: 'Creating…',
  sending: 'Sending…',
  acknowledge: 'Acknowledge',
  acknowledging: 'Acknowledging…',
  exportCsv: 'Export CSV',
  exportFailed: 'Could not export: {{userMessage}}',
  downloadCsv: 'Download CSV',
  copy: 'Copy',
  copied: 'Copied',
  enable: 'Enable',
  disable: 'Disable',
  dismiss: 'Dismiss',
  reopen: 'Reopen',
  refresh: 'Refresh',
  changeStatus: 'Change status',
  inviting: 'Inviting…',
  delete: 'Delete',
};
