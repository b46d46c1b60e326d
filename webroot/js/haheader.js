// The pool's HA on the page: the header's badge (active coordinator, term, "HA unavailable") and
// the failover notice under the header, which stays FAILOVER_NOTICE_MS after the failover.
import { $ } from './dom.js';
import { failoverNotice, haView } from './ha.js';

/** Puts the model's HA state on the page at server time `now`. */
export function renderHa(model, now) {
  const badge = $('pool-ha');
  const view = haView(model.snapshot);
  badge.hidden = !view;
  if (view) {
    badge.textContent = view.text;
    badge.title = view.title;
    badge.dataset.available = String(view.available);
  }
  const notice = $('failover');
  const text = failoverNotice(model, now);
  notice.hidden = !text;
  if (text && notice.textContent !== text) notice.textContent = text;
}
