import { afterEach, describe, expect, it } from 'vitest';
import { I18n } from 'aws-amplify/utils';
import { localizeAriaLabels, setUpSpanish } from './i18n';
import { SESSION_REVOKED_EN } from './session-revoked';

describe('localizeAriaLabels', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it("translates Amplify's English dismiss-alert label now and in later renders, until stopped", async () => {
    setUpSpanish();
    const root = document.createElement('div');
    root.innerHTML = '<button class="amplify-alert__dismiss" aria-label="Dismiss alert"></button>';
    document.body.append(root);
    const stop = localizeAriaLabels(root);
    expect(root.querySelector('button')!.getAttribute('aria-label')).toBe('Descartar alerta');

    root.insertAdjacentHTML('beforeend', '<button class="amplify-alert__dismiss" aria-label="Dismiss alert"></button>');
    await Promise.resolve();
    expect(root.querySelectorAll('button')[1]!.getAttribute('aria-label')).toBe('Descartar alerta');

    stop();
    root.insertAdjacentHTML('beforeend', '<button class="amplify-alert__dismiss" aria-label="Dismiss alert"></button>');
    await Promise.resolve();
    expect(root.querySelectorAll('button')[2]!.getAttribute('aria-label')).toBe('Dismiss alert');
  });

  it("translates the show-password switch's English screen-reader texts, also when Amplify changes them", async () => {
    setUpSpanish();
    const root = document.createElement('div');
    root.innerHTML =
      '<button class="amplify-field__show-password" aria-label="Show password"><span class="amplify-visually-hidden">Password is hidden</span></button>';
    document.body.append(root);
    const stop = localizeAriaLabels(root);
    const button = root.querySelector('button')!;
    const hidden = root.querySelector('.amplify-visually-hidden')!;
    expect(button.getAttribute('aria-label')).toBe('Mostrar contraseña');
    expect(hidden.textContent).toBe('La contraseña está oculta');
    hidden.firstChild!.nodeValue = 'Password is shown'; // what React does when the switch is toggled
    await Promise.resolve();
    expect(hidden.textContent).toBe('La contraseña está visible');
    stop();
  });
});

describe('the sign-in notice of a session ended by an administrator (docs/portal.md#session-loss)', () => {
  afterEach(() => setUpSpanish());

  it('is Spanish by default and English when the portal is in English', () => {
    setUpSpanish('es');
    expect(I18n.get(SESSION_REVOKED_EN)).toBe('Tu sesión se ha cerrado: un administrador ha deshabilitado tu cuenta o te ha retirado el acceso. Vuelve a iniciar sesión si aún tienes acceso.');
    setUpSpanish('en');
    expect(I18n.get(SESSION_REVOKED_EN)).toBe(SESSION_REVOKED_EN);
    expect(SESSION_REVOKED_EN).toMatch(/administrator disabled your account/);
  });
});
