/** Spanish texts of the `recommendations` feature (section `recommendations.*` of the catalogue, docs/portal.md#messages). */
export const recommendations = {
  page: {
    filterRecommendations: 'Filtrar recomendaciones',
    status: 'Estado',
    priority: 'Prioridad',
    all: 'Todas',
    noMatches: 'Ninguna recomendación coincide con los filtros.',
    noRecommendations: 'No hay recomendaciones.',
    writeANote: 'Escribe una nota.',
    noteTooLong: 'La nota no puede superar los 1000 caracteres.',
    recommendation: 'Recomendación «{{title}}»: {{status}}.',
    by: 'por',
    on: 'el',
    noteFor: 'Nota para «',
    confirm: 'Confirmar: {{action}}',
  },
  labels: {
    accept: 'Aceptar',
    markAsDone: 'Marcar como hecha',
  },
};
