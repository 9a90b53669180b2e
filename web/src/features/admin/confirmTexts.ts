/**
 * The texts of the administration screens' confirmation prompts before irreversible or access-removing
 * user actions (disable, remove from a customer, revoke staff, reset MFA, dismiss an access request;
 * docs/portal.md#administration), naming the user: `confirmTexts(action, who)` gives the title, what happens
 * and the confirm button's label for the shared dialog (`useConfirm`, web/src/shared/ui/ConfirmDialog.tsx).
 */
import { t as msg } from '../../shared/lib/messages';
import type { ConfirmPrompt } from '../../shared/ui/ConfirmDialog';

export { useConfirm, type ConfirmPrompt } from '../../shared/ui/ConfirmDialog';

/** The user actions that ask first. */
export type ConfirmAction = 'disable' | 'remove' | 'revokeStaff' | 'resetMfa' | 'dismissAccessRequest';

/** The prompt (in the portal's language) of `action` on user `who` (its e-mail, else its username); `tenantName` for `remove`. */
export function confirmTexts(action: ConfirmAction, who: string, tenantName?: string): ConfirmPrompt {
  switch (action) {
    case 'disable':
      return {
        title: msg('admin.confirmDialog.disable', { who }),
        body: msg('admin.confirmDialog.disableBody', { who }),
        confirmLabel: msg('actions.disable'),
      };
    case 'remove':
      return {
        title: msg('admin.confirmDialog.removeFromTheCustomer', { who, tenantSuffix: tenantName ? ` ${tenantName}` : '' }),
        body: msg('admin.confirmDialog.removeFromTenantBody', { who }),
        confirmLabel: msg('admin.pages.removeFromCustomer'),
      };
    case 'revokeStaff':
      return {
        title: msg('admin.confirmDialog.revokeSocAccessFrom', { who }),
        body: msg('admin.confirmDialog.revokeSocAccessBody', { who }),
        confirmLabel: msg('admin.pages.revokeSocAccess'),
      };
    case 'dismissAccessRequest':
      return {
        title: msg('admin.confirmDialog.dismissAccessRequestOf', { who }),
        body: msg('admin.confirmDialog.dismissAccessRequestBody', { who }),
        confirmLabel: msg('actions.dismiss'),
      };
    case 'resetMfa':
      return {
        title: msg('admin.confirmDialog.resetTheMfaOf', { who }),
        body: msg('admin.confirmDialog.resetMfaBody', { who }),
        confirmLabel: msg('admin.pages.resetMfa'),
      };
  }
}
