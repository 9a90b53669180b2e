/** English texts of "Users", a customer admin's own team (section `team.*`; same keys as `../es/team.ts`). */
import type { Catalogue } from '../es';

export const team: Catalogue['team'] = {
  page: {
    intro: 'The people of {{tenant}} who sign in to the portal and what each one may do: viewer (reads only), operator (works incidents and alarms) or admin (also manages users, webhooks and contacts).',
    colleagues: 'Users of {{tenant}}',
    empty: 'This customer has no users yet.',
  },
  table: {
    federated: 'company account',
    roleOf: 'Role of {{who}}',
    changeRole: 'Change role',
    remove: 'Remove',
  },
  invite: {
    title: 'Invite a colleague',
    email: 'E-mail',
    name: 'Name',
    submit: 'Send invitation',
    badEmail: 'Enter a valid e-mail address.',
    badName: 'Enter the name (up to 120 characters).',
    sent: 'Invitation sent to {{email}}: they will get a temporary password by e-mail.',
  },
  notices: {
    roleChanged: '{{who}} is now {{role}}.',
    disabled: '{{who}} can no longer sign in.',
    enabled: '{{who}} can sign in again.',
    removed: '{{who}} is no longer in the customer.',
  },
  confirm: {
    disableTitle: 'Disable {{who}}?',
    disableBody: '{{who}} will not be able to sign in and their open session will end. You can enable them again.',
    removeTitle: 'Remove {{who}}?',
    removeBody: '{{who}} will no longer see this customer’s data and their account will be deleted. This cannot be undone.',
    demoteTitle: 'Change the role of {{who}} to {{role}}?',
    demoteBody: '{{who}} will lose permissions and must sign in again.',
  },
  errors: {
    LAST_ADMIN: 'The customer must keep at least one enabled admin: make someone else admin first.',
    OWN_ACCOUNT: 'You cannot disable, remove or demote yourself: another admin has to do it.',
    USER_EXISTS: 'An account with that e-mail already exists.',
    NOT_FOUND: 'That user is no longer in the customer. Reload the list.',
    withReference: '{{message}} (reference {{id}})',
  },
};
