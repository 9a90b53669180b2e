/** Spanish texts of the `notifications` feature (section `notifications.*` of the catalogue, docs/portal.md#messages). */
export const notifications = {
  panel: {
    notifications: 'Notificaciones',
    noRecords: 'No hay registros',
    latestNotifications: 'Últimas notificaciones',
    alarm: 'Alarma:',
    viewAll: 'Ver todas',
    viewIncidents: 'Ver incidentes',
  },
};
