/**
 * Ownership of disposables: an object registers what it creates (subscriptions, providers,
 * terminals) and disposes all of it, once, when it is disposed itself.
 */

export interface DisposableLike {
  dispose(): unknown;
}

export abstract class Disposable implements DisposableLike {
  private readonly owned: DisposableLike[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  /** Takes ownership; registering after disposal disposes at once (nothing may leak). */
  protected _register<T extends DisposableLike>(value: T): T {
    if (this.disposed) void value.dispose();
    else this.owned.push(value);
    return value;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Last in, first out: later things may depend on earlier ones.
    const errors: unknown[] = [];
    for (const item of this.owned.splice(0).reverse()) {
      try {
        void item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "Several disposables failed to dispose");
  }
}
