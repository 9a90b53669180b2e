/** English texts of "Maintenance" (section `maintenance.*`; same keys as `../es/maintenance.ts`). */
import type { Catalogue } from '../es';

export const maintenance: Catalogue['maintenance'] = {
  page: {
    intro: 'Planned work on devices or sites of {{tenant}}: alarms inside a window are marked "In maintenance" and notify nobody.',
    list: 'Maintenance windows of {{tenant}}',
    show: 'Show',
    current: 'In progress and upcoming',
    past: 'Ended',
    empty: 'No maintenance windows.',
    readOnly: 'Only the customer\u2019s admins and the SOC can declare windows.',
  },
  table: {
    scope: 'Devices and sites',
    status: 'Status',
    site: 'Site {{site}}',
    edit: 'Edit',
    editOf: 'Edit {{title}}',
    removeOf: 'Delete {{title}}',
  },
  form: {
    createTitle: 'Declare a window',
    editTitle: 'Edit "{{title}}"',
    devices: 'Devices',
    chosen: 'Chosen devices',
    noDevices: 'No device chosen.',
    add: 'Add device',
    removeDevice: 'Remove {{name}}',
    sites: 'Sites (comma-separated)',
    timeZone: 'Times in your time zone ({{zone}}); stored in UTC.',
    save: 'Save window',
    create: 'Declare window',
    badTitle: 'Say what work will be done (up to 120 characters).',
    badScope: 'Choose at least one device or site.',
    badTime: 'Enter a date and time.',
    endsBeforeStart: 'The end must be after the start.',
    tooLong: 'A maintenance window lasts at most {{max}} days.',
    unknownDevice: 'A chosen device no longer exists for this customer.',
    startInPast: 'A window cannot start in the past.',
    conflict: 'Someone else changed this window while you were editing it. The current version is shown; make your changes again.',
  },
  notices: {
    created: 'Window "{{title}}" declared.',
    saved: 'Window "{{title}}" saved.',
    removed: 'Window "{{title}}" deleted.',
  },
  confirm: {
    removeTitle: 'Delete the window "{{title}}"?',
    removeBody: 'Alarms of those devices will notify again in that period.',
  },
};
