/** English texts of the `settings` feature (section `settings.*`; same keys as `../es/settings.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const settings: Catalogue['settings'] = {
  page: {
    theme: 'Theme',
    layout: 'Layout',
    idiomaLanguage: 'Idioma / Language',
    espanol: 'Español',
    english: 'English',
    storedLocally: 'Preferences are saved in this browser.',
    collapsedSidebar: 'Collapsed sidebar',
    sidebarHiddenHint: 'On wide screens the sidebar is hidden; the header\'s menu button shows it again.',
    boxedLayout: 'Boxed layout',
    centredHint: 'The portal uses a centred column of at most 1200 px.',
    fixedFooter: 'Fixed footer',
    stickyFooterHint: 'The footer always stays visible while scrolling.',
    fullHeight: 'Full height',
    fullHeightHint: 'The content fills the window height even when the page is short.',
    fullWidth: 'Full width',
    fullWidthHint: 'The content uses the whole window width (without the 1360 px limit).',
    light: 'Light',
    dark: 'Dark',
  },
};
