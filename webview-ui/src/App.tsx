/** Placeholder panel until the real chat view lands (VS Code host issue). */
export function App() {
  return (
    <main style={{ padding: "0 12px", color: "var(--vscode-foreground)" }}>
      <h2>Tandem</h2>
      <p>The chat panel is on its way.</p>
    </main>
  );
}
