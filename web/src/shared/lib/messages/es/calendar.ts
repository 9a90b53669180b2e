/** Spanish texts of the `calendar` feature (section `calendar.*` of the catalogue, docs/portal.md#messages). */
export const calendar = {
  page: {
    weekdays: { mon: 'Lun', tue: 'Mar', wed: 'Mié', thu: 'Jue', fri: 'Vie', sat: 'Sáb', sun: 'Dom' },
    calendar: 'Calendario',
    previousMonth: 'Mes anterior',
    nextMonth: 'Mes siguiente',
    incidentsAndAlarmsOf: 'Incidentes y alarmas de',
    alarm: 'Alarma:',
    more: 'más',
    eventsOfTheMonth: 'Eventos del mes',
    noIncidentsOrAlarms: 'No hay incidentes ni alarmas este mes.',
    incident: 'Incidente',
  },
};
