/** Shown instead of the task header when there is no task. */
export function Welcome() {
  return (
    <section className="welcome">
      <h2>What should Tandem do?</h2>
      <p>
        Describe a task below. Tandem asks before it edits a file or runs a command, unless you let it
        approve those by itself.
      </p>
    </section>
  );
}
