/**
 * The service tier's fakes are typed against the real classes: `Public<Real>` is every public member of `Real`
 * (a class with private fields is nominal, so a fake cannot `implements` it directly). A fake declared
 * `implements Public<Real>` — or `Pick<Real, …>` for the members its service calls — stops compiling when a
 * signature changes (`npm run build` type-checks this folder).
 */
export type Public<T> = { [K in keyof T]: T[K] };

/** The public members of `T`, and of each object it holds (a store's repositories), methods as they are. */
export type Shape<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? T[K] : Public<T[K]> };

/**
 * Hands a fake to a real service's constructor parameter of type T (inferred from that parameter): every member the
 * fake has must match T's, and the fake's own `implements` declaration checked the members the service calls.
 */
export function asReal<T>(fake: Partial<Shape<NoInfer<T>>>): T {
  return fake as T;
}
