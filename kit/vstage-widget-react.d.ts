//! `<vstage-widget>` in React 19's JSX: its attributes as props, and each `vstage-*` event as an `on` prop of the
//! same name (`onvstage-result-chosen`), which React 19 adds with `addEventListener` on custom elements.
//! `import type {} from "./vstage-widget-react";` once in the app (or list the file in tsconfig's `include`).

import type { DetailedHTMLProps, HTMLAttributes } from "react";
import type { VstageWidgetAttributes, VstageWidgetElement, VstageWidgetEventMap } from "./vstage-widget";

export * from "./vstage-widget";

/** `on<event name>` for each event, its handler typed with the event's `detail`. */
export type VstageWidgetReactEvents = {
  [K in keyof VstageWidgetEventMap as `on${K}`]?: (event: VstageWidgetEventMap[K]) => void;
};

/** The props of `<vstage-widget>`: React's own (`ref`, `key`, `id`, `className`, `style`), the attributes, the
 * events. */
export type VstageWidgetReactProps = DetailedHTMLProps<HTMLAttributes<VstageWidgetElement>, VstageWidgetElement> &
  VstageWidgetAttributes &
  VstageWidgetReactEvents;

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "vstage-widget": VstageWidgetReactProps;
    }
  }
}
