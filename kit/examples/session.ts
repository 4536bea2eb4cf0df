//! What both example hosts share: the page's session, written into it by the host's backend (host.mjs): the
//! agent's first token and the listing's photo; and a new token from that backend when the studio asks for one.

export interface HostSession {
  /** The widget token the backend signed for the agent signed in. */
  token: string;
  /** The listing's name and photo, which the studio's new-render form starts with. */
  listing: string;
  photoUrl: string | undefined;
}

/** The session in `root`'s `data-` attributes. */
export function readSession(root: HTMLElement): HostSession {
  const { token, listing, photoUrl } = root.dataset;
  if (!token) throw new Error("This page has no session: open it from the host, node kit/examples/host.mjs");
  return { token, listing: listing ?? "A listing", photoUrl: photoUrl || undefined };
}

/** A new token for the agent signed in, from the host's backend (`POST /token`). */
export async function renewedToken(): Promise<string> {
  const answer = await fetch("/token", { method: "POST" });
  if (!answer.ok) throw new Error(`the host's backend gave no new token (HTTP ${answer.status})`);
  const { token } = (await answer.json()) as { token?: unknown };
  if (typeof token !== "string") throw new Error("the host's backend answered without a token");
  return token;
}

/** The listing's words for a chosen photo: the statement, then its link's words (a link, not an address). */
export function caption(chosen: {
  disclosure: string;
  statement_words: string | null;
  link_words: string | null;
  disclosure_url: string | null;
}): { words: string; link?: { href: string; words: string } } {
  if (chosen.statement_words !== null && chosen.disclosure_url !== null) {
    return { words: chosen.statement_words, link: { href: chosen.disclosure_url, words: chosen.link_words ?? "" } };
  }
  return { words: chosen.disclosure };
}
