/** Spanish texts of the `calendar` feature (section `calendar.*` of the catalogue, docs/portal.md#messages). */
export const calendar = {
  page: {
    weekdays: { mon: 'Lun', tue: 'Mar', wed: 'Mié', thu: 'Jue', fri: 'Vie', sat: 'Sáb', sun: 'Dom' },
    previousMonth: 'Mes anterior',
    nextMonth: 'Mes siguiente',
    incidentsAndAlarmsOf: 'Incidentes y alarmas de',
    alarm: 'Alarma:',
    more: 'más',
    eventsOfTheMonth: 'Eventos del mes',
    emptyMonth: 'No hay incidentes ni alarmas este mes.',
    firstItemsOnly: 'Se muestran los primeros {{n}} incidentes y las primeras {{n}} alarmas del mes; los recuentos de cada día incluyen todos.',
    viewAllIncidents: 'Ver todos los incidentes',
    viewAllAlarms: 'Ver todas las alarmas',
    incident: 'Incidente',
  },
};
