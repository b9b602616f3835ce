import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorBanner } from './error-banner';

interface State {
  error: unknown;
}

/** Catches a render error in one page so the shell (navigation, header) keeps working; `resetKey` clears it. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  override state: State = { error: undefined };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidUpdate(prev: { resetKey?: string }): void {
    if (prev.resetKey !== this.props.resetKey && this.state.error !== undefined) {
      this.setState({ error: undefined });
    }
  }

  override componentDidCatch(_error: unknown, _info: ErrorInfo): void {
    // React already reports the error to the console in development; nothing else to record here.
  }

  override render(): ReactNode {
    if (this.state.error !== undefined) {
      return <ErrorBanner error={this.state.error} onRetry={() => this.setState({ error: undefined })} />;
    }
    return this.props.children;
  }
}
