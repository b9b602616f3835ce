import { ApiError } from '../api/client';

/** Shows a failed call: hub's error code, message and details (`field`, `value`, `rule`), or any other error. */
export function ErrorBanner({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const api = error instanceof ApiError ? error : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const details = api ? Object.entries(api.details) : [];
  return (
    <div className="error-banner" role="alert">
      <p className="error-banner__title">
        {api ? <code className="error-banner__code">{api.code}</code> : null}
        <span>{message}</span>
      </p>
      {details.length > 0 && (
        <dl className="error-banner__details">
          {details.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>
                <code>{typeof v === 'string' ? v : JSON.stringify(v)}</code>
              </dd>
            </div>
          ))}
        </dl>
      )}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
