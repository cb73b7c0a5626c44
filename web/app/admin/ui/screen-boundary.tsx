/**
 * ScreenBoundary keeps a screen that throws while it renders from blanking
 * the console: the screen's place shows the error state (states.tsx) with
 * "Try again", and the navigation around it keeps working. The shell keys
 * it by the address, so another screen starts afresh.
 */
import { Component, type ErrorInfo, type ReactNode } from "react";
import { problemCopy } from "~/content/console";
import { ProblemState } from "./states";

type State = { failed: boolean };

export class ScreenBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("console screen failed", error, info.componentStack);
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section aria-labelledby="screen-title">
        <h1 id="screen-title" tabIndex={-1} className="sr-only">
          {problemCopy.other.title}
        </h1>
        {/* A fault of the page, not a refusal: the generic words, never the error's own. */}
        <ProblemState problem={{ kind: "other", message: "" }} onRetry={() => this.setState({ failed: false })} />
      </section>
    );
  }
}
