/** Spanish texts of the `settings` feature (section `settings.*` of the catalogue, docs/portal.md#messages). */
export const settings = {
  page: {
    theme: 'Tema',
    layout: 'Diseño',
    idiomaLanguage: 'Idioma / Language',
    espanol: 'Español',
    english: 'English',
    storedLocally: 'Las preferencias se guardan en este navegador.',
    collapsedSidebar: 'Menú lateral contraído',
    sidebarHiddenHint: 'En pantallas anchas el menú lateral se oculta; el botón de menú de la cabecera lo vuelve a mostrar.',
    boxedLayout: 'Diseño en caja',
    centredHint: 'El portal ocupa una columna centrada de 1200 px como máximo.',
    fixedFooter: 'Pie de página fijo',
    stickyFooterHint: 'El pie de página queda siempre visible al desplazarse.',
    fullHeight: 'Altura completa',
    fullHeightHint: 'El contenido llena la altura de la ventana aunque la página sea corta.',
    fullWidth: 'Ancho completo',
    fullWidthHint: 'El contenido usa todo el ancho de la ventana (sin el límite de 1360 px).',
    light: 'Claro',
    dark: 'Oscuro',
  },
};
