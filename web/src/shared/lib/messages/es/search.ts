/** Spanish texts of the `search` feature (section `search.*` of the catalogue, docs/portal.md#messages). */
export const search = {
  results: {
    searchResults: 'Resultados de búsqueda',
    typeAtLeast2: 'Escribe al menos 2 caracteres en el buscador de la cabecera.',
    resultsFor: 'Resultados para «',
    incidents: 'Incidentes',
    noIncidentMatches: 'Ningún incidente coincide.',
    incidentsHint: 'Incidentes cuyo título contiene todas las palabras buscadas (sin distinguir mayúsculas ni acentos).',
    viewAllInThe: 'Ver todos en la lista de incidentes',
    devices: 'Dispositivos',
    noDeviceMatches: 'Ningún dispositivo coincide.',
    devicesHint: 'Dispositivos cuyo nombre empieza por el texto buscado.',
    comments: 'Comentarios',
    commentsHint: 'Comentarios de incidentes que contienen todas las palabras buscadas.',
    noCommentMatches: 'Ningún comentario coincide.',
    devicesByIp: 'Dispositivos por IP',
    devicesByIpHint: 'Dispositivos cuya dirección IP es la buscada o empieza por ella.',
    noDeviceIpMatches: 'Ningún dispositivo tiene esa dirección.',
  },
};
