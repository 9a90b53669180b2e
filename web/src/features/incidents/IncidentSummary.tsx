/** The incident's details card: the customer, then the details rows of the incident's field registry (`incident-fields.tsx`), then the description. */
import { Fragment } from 'react';
import type { IncidentDetail } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';
import { detailFieldsOf } from '../../shared/ui/fields';
import { INCIDENT_FIELDS } from './incident-fields';

export function IncidentSummary({ incident, tenantName }: { incident: IncidentDetail; tenantName: string }) {
  return (
    <div className="card">
      <h2>{msg('common.details')}</h2>
      <dl className="details">
        <dt>{msg('fields.common.customer')}</dt>
        <dd>{tenantName}</dd>
        {detailFieldsOf(INCIDENT_FIELDS, incident).map((f) => (
          <Fragment key={f.key}>
            <dt>{f.label()}</dt>
            <dd data-field={f.key}>{f.detail!(incident)}</dd>
          </Fragment>
        ))}
      </dl>
      <h3>{msg('fields.incident.description')}</h3>
      <p className="pre-wrap">{incident.description}</p>
    </div>
  );
}
