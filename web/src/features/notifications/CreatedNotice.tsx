/** The one-time notice after adding a webhook: its signing secret (JSON webhooks) with "Copiar" and a warning. */
import { useEffect, useRef, useState } from 'react';
import type { WebhookView } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';
import '../../shared/ui/screens.css';
import './notification-settings.css';

export function CreatedNotice({ created, onDone }: { created: { webhook: WebhookView; secret: string | null }; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);
  // The secret is shown this once: take the focus there so keyboard and screen-reader users land on it.
  useEffect(() => titleRef.current?.focus(), [created]);
  if (!created.secret) return null;
  const secret = created.secret;
  return (
    <section className="card secret-card" aria-labelledby="webhook-secret-title">
      <h2 id="webhook-secret-title" ref={titleRef} tabIndex={-1}>
        {msg('notifications.webhooks.secretTitle')}
      </h2>
      <p className="secret-warning" id="webhook-secret-warning">
        {msg('notifications.webhooks.secretWarning')}
      </p>
      <p className="secret-row">
        <code data-testid="webhook-secret" aria-describedby="webhook-secret-warning">
          {secret}
        </code>
      </p>
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() =>
            void navigator.clipboard?.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? msg('actions.copied') : msg('actions.copy')}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          {msg('notifications.webhooks.secretDone')}
        </button>
      </div>
    </section>
  );
}
