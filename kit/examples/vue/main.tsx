//! An example listing site in Vue 3 that embeds the studio: it mounts `<vstage-widget>` with the token its backend
//! signed, asks that backend for a new one on `vstage-token-expired`, shows the photo an agent chose for the
//! listing with its disclosure, and closes the studio (unmounting it, which ends its event stream). TSX through
//! Vue's own JSX runtime (`vue/jsx-runtime`); in a template the element is written the same, with
//! `@vstage-result-chosen`. Built with esbuild and served by host.mjs; docs/embedding.md, "React and Vue".

import { createApp, defineComponent, type PropType, ref } from "vue";
import type { VstageResultChosenDetail } from "../../vstage-widget-vue";
import { caption, type HostSession, readSession, renewedToken } from "../session";

const ChosenPhoto = defineComponent({
  props: { chosen: { type: Object as PropType<VstageResultChosenDetail>, required: true } },
  setup(props) {
    return () => {
      const { words, link } = caption(props.chosen);
      return (
        <figure id="chosen">
          <img src={props.chosen.url} alt="The photo chosen for the listing" width={480} />
          <figcaption>
            {words} {link && <a href={link.href}>{link.words}</a>}
          </figcaption>
        </figure>
      );
    };
  },
});

const Listing = defineComponent({
  props: { session: { type: Object as PropType<HostSession>, required: true } },
  setup(props) {
    const token = ref(props.session.token);
    const open = ref(true);
    const chosen = ref<VstageResultChosenDetail | null>(null);
    const heard = ref<string[]>([]);
    const note = (line: string) => heard.value.push(line);

    const renew = async () => {
      note("The token expired");
      try {
        token.value = await renewedToken();
        note("Token renewed");
      } catch (error) {
        note(`No new token: ${String(error)}`);
      }
    };

    return () => (
      <main>
        <h1>{props.session.listing}</h1>
        <button id="toggle-studio" type="button" onClick={() => (open.value = !open.value)}>
          {open.value ? "Close the studio" : "Open the studio"}
        </button>
        {open.value && (
          <vstage-widget
            token={token.value}
            view="new-render"
            photo-url={props.session.photoUrl}
            onVstageReady={() => note("Studio ready")}
            onVstageTokenExpired={renew}
            onVstageResultChosen={(event) => {
              chosen.value = event.detail;
              note(`Chosen: ${event.detail.variation_id}`);
            }}
            onVstageError={(event) => note(`Studio error: ${event.detail.message}`)}
          />
        )}
        {chosen.value && <ChosenPhoto chosen={chosen.value} />}
        <ul id="host-log" aria-label="What the host heard">
          {heard.value.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      </main>
    );
  },
});

const root = document.getElementById("app");
if (root) {
  const session = readSession(root);
  createApp(Listing, { session }).mount(root);
}
