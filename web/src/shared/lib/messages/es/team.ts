/** Spanish texts of "Usuarios", a customer admin's own team (section `team.*`, docs/portal.md#team). */
export const team = {
  page: {
    intro: 'Las personas de {{tenant}} que entran en el portal y lo que puede hacer cada una: lectura (solo consulta), operador (trabaja incidentes y alarmas) o administrador (además gestiona usuarios, webhooks y contactos).',
    colleagues: 'Usuarios de {{tenant}}',
    empty: 'Todavía no hay usuarios en este cliente.',
  },
  table: {
    federated: 'cuenta de empresa',
    roleOf: 'Rol de {{who}}',
    changeRole: 'Cambiar rol',
    remove: 'Quitar',
  },
  invite: {
    title: 'Invitar a un colega',
    email: 'Correo electrónico',
    name: 'Nombre',
    submit: 'Enviar invitación',
    badEmail: 'Escribe un correo electrónico válido.',
    badName: 'Escribe el nombre (hasta 120 caracteres).',
    sent: 'Invitación enviada a {{email}}: recibirá una contraseña temporal por correo.',
  },
  notices: {
    roleChanged: '{{who}} es ahora {{role}}.',
    disabled: '{{who}} ya no puede entrar.',
    enabled: '{{who}} puede volver a entrar.',
    removed: '{{who}} ya no está en el cliente.',
  },
  confirm: {
    disableTitle: '¿Deshabilitar a {{who}}?',
    disableBody: '{{who}} no podrá entrar en el portal y su sesión abierta se cerrará. Puedes volver a habilitarlo.',
    removeTitle: '¿Quitar a {{who}}?',
    removeBody: '{{who}} dejará de ver los datos de este cliente y su cuenta se eliminará. No se puede deshacer.',
    demoteTitle: '¿Cambiar el rol de {{who}} a {{role}}?',
    demoteBody: '{{who}} perderá permisos y deberá iniciar sesión de nuevo.',
  },
  errors: {
    LAST_ADMIN: 'El cliente debe conservar al menos un administrador habilitado: nombra antes a otro administrador.',
    OWN_ACCOUNT: 'No puedes deshabilitarte, quitarte ni bajarte el rol a ti mismo: debe hacerlo otro administrador.',
    USER_EXISTS: 'Ya existe una cuenta con ese correo electrónico.',
    NOT_FOUND: 'Ese usuario ya no está en el cliente. Recarga la lista.',
    withReference: '{{message}} (referencia {{id}})',
  },
};
