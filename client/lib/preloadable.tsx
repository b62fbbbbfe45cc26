import { type ComponentType, lazy, useState } from 'react';

export type Preloadable<P extends object> = ComponentType<P> & {
  /** Loads the component's code; once it is in, the component renders without suspending. */
  preload(): Promise<unknown>;
};

/**
 * Like `React.lazy`, but a component whose code was loaded beforehand (`preload()`) renders at
 * once instead of suspending. That matters beyond the one frame: React holds back revealing a
 * suspended boundary until 300 ms after the last fallback it showed anywhere, so a lazy
 * component that suspends on the first screen appears ~300 ms late even when its code is
 * already here.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then((component) => {
      loaded = component;
      return component;
    });
    return loading;
  };
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  // biome-ignore lint/correctness/noComponentHookFactories: called once per module, like React.lazy
  function PreloadableComponent(props: P) {
    // Chosen once per mount: switching between the two would remount what is below.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(PreloadableComponent, { preload });
}
