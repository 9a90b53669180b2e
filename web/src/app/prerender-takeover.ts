/**
 * The portal taking over the sign-in form prerendered in `index.html` (`web/build/signin-prerender.ts`,
 * docs/portal.md#prerendered-sign-in).
 *
 * Called from the layout effect of the first screen the portal shows — its own sign-in form (the form's header,
 * `AuthGate`'s `SignInBrand`), or anything else (the signed-in portal, the waiting page, the configuration
 * error) — so the prerendered form and the live one are never both on a painted frame and no frame has neither.
 */
import { PRERENDER_ELEMENT_ID } from '../../build/signin-prerender-variants';

/**
 * Removes `#signin-prerender` and the other variants' templates (the stylesheet then shows `#root`). With `liveForm`, first moves into it what the
 * user did to the prerendered form: each named field's value (through the native setter and an `input`
 * event, so the form's React handlers see it as typed) and the focus with the caret or selection.
 * Does nothing when there is no prerendered form (already taken over, or a page without one).
 */
export function takeOverPrerender(liveForm: HTMLElement | null, doc: Document = document): void {
  const prerendered = doc.getElementById(PRERENDER_ELEMENT_ID);
  if (!prerendered) return;
  const typed = [...prerendered.querySelectorAll<HTMLInputElement>('input[name]')].filter((i) => i.value !== '').map((i) => ({ name: i.name, value: i.value }));
  const active = doc.activeElement instanceof HTMLInputElement && prerendered.contains(doc.activeElement) ? doc.activeElement : null;
  const focus = active ? { name: active.name, start: active.selectionStart, end: active.selectionEnd } : null;
  prerendered.remove();
  // The other variants' templates: inert, but still in the page's markup.
  doc.querySelectorAll(`template[id^="${PRERENDER_ELEMENT_ID}-"]`).forEach((t) => t.remove());
  if (!liveForm) return;
  const field = (name: string) => [...liveForm.querySelectorAll<HTMLInputElement>('input[name]')].find((i) => i.name === name) ?? null;
  for (const { name, value } of typed) {
    const input = field(name);
    if (!input || input.value === value) continue;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  const target = focus ? field(focus.name) : null;
  if (target && focus) {
    target.focus();
    if (focus.start !== null && focus.end !== null) {
      try {
        target.setSelectionRange(focus.start, focus.end);
      } catch {
        // type="email" has no selection API: the caret stays at the end.
      }
    }
  }
}
