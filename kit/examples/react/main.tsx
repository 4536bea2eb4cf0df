//! An example listing site in React 19 that embeds the studio: it mounts `<vstage-widget>` with the token its
//! backend signed, asks that backend for a new one on `vstage-token-expired`, shows the photo an agent chose for
//! the listing with its disclosure, and closes the studio (unmounting it, which ends its event stream).
//! Built with esbuild and served by host.mjs; docs/embedding.md, "React and Vue".

import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import type { VstageResultChosenDetail } from "../../vstage-widget-react";
import { caption, type HostSession, readSession, renewedToken } from "../session";

function ChosenPhoto({ chosen }: { chosen: VstageResultChosenDetail }) {
  const { words, link } = caption(chosen);
  return (
    <figure id="chosen">
      <img src={chosen.url} alt="The photo chosen for the listing" width={480} />
      <figcaption>
        {words} {link && <a href={link.href}>{link.words}</a>}
      </figcaption>
    </figure>
  );
}

function Listing({ session }: { session: HostSession }) {
  const [token, setToken] = useState(session.token);
  const [open, setOpen] = useState(true);
  const [chosen, setChosen] = useState<VstageResultChosenDetail | null>(null);
  const [heard, setHeard] = useState<string[]>([]);
  const note = (line: string) => setHeard((lines) => [...lines, line]);

  const renew = async () => {
    note("The token expired");
    try {
      setToken(await renewedToken());
      note("Token renewed");
    } catch (error) {
      note(`No new token: ${String(error)}`);
    }
  };

  return (
    <main>
      <h1>{session.listing}</h1>
      <button id="toggle-studio" type="button" onClick={() => setOpen(!open)}>
        {open ? "Close the studio" : "Open the studio"}
      </button>
      {open && (
        <vstage-widget
          token={token}
          view="new-render"
          photo-url={session.photoUrl}
          onvstage-ready={() => note("Studio ready")}
          onvstage-token-expired={renew}
          onvstage-result-chosen={(event) => {
            setChosen(event.detail);
            note(`Chosen: ${event.detail.variation_id}`);
          }}
          onvstage-error={(event) => note(`Studio error: ${event.detail.message}`)}
        />
      )}
      {chosen && <ChosenPhoto chosen={chosen} />}
      <ul id="host-log" aria-label="What the host heard">
        {heard.map((line, index) => (
          <li key={index}>{line}</li>
        ))}
      </ul>
    </main>
  );
}

const root = document.getElementById("app");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Listing session={readSession(root)} />
    </StrictMode>,
  );
}
