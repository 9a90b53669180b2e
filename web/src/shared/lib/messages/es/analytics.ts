/** Spanish texts of the `analytics` feature (section `analytics.*` of the catalogue, docs/portal.md#messages). */
export const analytics = {
  page: {
    allCustomersFrom: 'Todos los clientes · del',
    to: 'al',
    byCustomer: 'Por cliente',
    noCustomers: 'No hay clientes.',
    figuresByCustomer: 'Indicadores por cliente',
    totalsOnePageOnly: 'Los totales de todos los clientes se muestran cuando caben en una página; con más clientes, recorra las páginas o descargue el CSV por cliente.',
    customersShown_one: '{{count}} cliente mostrado',
    customersShown_other: '{{count}} clientes mostrados',
  },
};
