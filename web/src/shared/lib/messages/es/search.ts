/** Spanish texts of the `search` feature (section `search.*` of the catalogue, docs/portal.md#messages). */
export const search = {
  results: {
    searchResults: 'Resultados de búsqueda',
    typeAtLeast2: 'Escribe al menos 2 caracteres en el buscador de la cabecera.',
    resultsFor: 'Resultados para «',
    incidents: 'Incidentes',
    noIncidentMatches: 'Ningún incidente coincide.',
    viewAllInThe: 'Ver todos en la lista de incidentes',
    devices: 'Dispositivos',
    noDeviceMatches: 'Ningún dispositivo coincide.',
  },
};
