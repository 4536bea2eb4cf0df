//! `<vstage-widget>` in Vue 3: its attributes as props, and each `vstage-*` event as a listener
//! (`@vstage-result-chosen` in a template, `onVstageResultChosen` in TSX or `h()`), for templates checked by
//! vue-tsc (`GlobalComponents`) and for TSX (`IntrinsicElementAttributes`). Tell Vue's template compiler the tag is
//! a custom element: `compilerOptions.isCustomElement = (tag) => tag === "vstage-widget"`.
//! `import type {} from "./vstage-widget-vue";` once in the app (or list the file in tsconfig's `include`).

import type { DefineComponent, HTMLAttributes } from "vue";
import type { VstageWidgetAttributes, VstageWidgetEventMap } from "./vstage-widget";

export * from "./vstage-widget";

/** `vstage-result-chosen` → `VstageResultChosen`. */
type Pascal<Name extends string> = Name extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${Pascal<Tail>}`
  : Capitalize<Name>;

/** `on<EventName>` for each event, its handler typed with the event's `detail`. */
export type VstageWidgetVueEvents = {
  [K in keyof VstageWidgetEventMap as `on${Pascal<K>}`]?: (event: VstageWidgetEventMap[K]) => void;
};

/** The props of `<vstage-widget>`: Vue's own (`class`, `style`, `id`), the attributes, the events. */
export type VstageWidgetVueProps = Omit<HTMLAttributes, "lang"> & VstageWidgetAttributes & VstageWidgetVueEvents;

declare module "vue" {
  interface GlobalComponents {
    "vstage-widget": DefineComponent<VstageWidgetAttributes & VstageWidgetVueEvents>;
  }
}

declare module "@vue/runtime-dom" {
  interface IntrinsicElementAttributes {
    "vstage-widget": VstageWidgetVueProps;
  }
}
