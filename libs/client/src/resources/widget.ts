// widget: the want-list widget — your settings (scope `admin`: the embed snippet and the origins
// allowed to use it), and its public routes (no key needed), which the widget itself calls from
// buyers' browsers: whether it works on the page, card suggestions, reading and sending a want list. Also the script's URL, which is
// for a <script> tag, not JSON: built here, never fetched.
import type {
  CardSuggestions,
  CardSuggestionsParams,
  NotificationSettings,
  NotificationSettingsUpdateParams,
  ResolvedWantList,
  WantListParams,
  WantListReceived,
  WantListTextParams,
  WidgetAvailability,
  WidgetSettings,
  WidgetSettingsUpdateParams,
} from '../types';
import { encodePath, type Transport } from '../core/transport';
import { type RequestOptions, Resource } from './resource';

export class Widget extends Resource {
  constructor(
    transport: Pick<Transport, 'request'>,
    /** The server's origin and path prefix, without /api/v1 (where /widget.js is). */
    private readonly siteUrl: string,
  ) {
    super(transport);
  }

  /** GET /widget/settings: your seller slug, allowed origins and the snippet to paste. */
  retrieveSettings(options?: RequestOptions): Promise<WidgetSettings> {
    return this.call('/api/v1/widget/settings', 'get', {}, options);
  }

  /** PUT /widget/settings `{ allowedOrigins }`: only pages of these origins may use your widget (empty: any). */
  updateSettings(body: WidgetSettingsUpdateParams, options?: RequestOptions): Promise<WidgetSettings> {
    return this.call('/api/v1/widget/settings', 'put', { body }, options);
  }

  /** GET /widget/settings/notifications: the in-stock emails your want-list buyers get (on or off, shop name, reply-to, shop URL). */
  retrieveNotificationSettings(options?: RequestOptions): Promise<NotificationSettings> {
    return this.call('/api/v1/widget/settings/notifications', 'get', {}, options);
  }

  /** PUT /widget/settings/notifications `{ enabled, shopName, replyTo, shopUrl }`: replaces them (the shop URL https, or http://localhost). */
  updateNotificationSettings(body: NotificationSettingsUpdateParams, options?: RequestOptions): Promise<NotificationSettings> {
    return this.call('/api/v1/widget/settings/notifications', 'put', { body }, options);
  }

  /**
   * GET /public/sellers/{slug}/widget (public): whether the widget works on the page asking (its
   * `Origin`) — `available: false` with `reason: "ORIGIN_NOT_ALLOWED"` when the seller did not
   * allow that origin; NotFoundError for a slug no seller has.
   */
  availability(slug: string, options?: RequestOptions): Promise<WidgetAvailability> {
    return this.call('/api/v1/public/sellers/{slug}/widget', 'get', { path: { slug } }, options);
  }

  /** GET /public/sellers/{slug}/card-suggestions (public): card names for what was typed, with their sets. */
  cardSuggestions(slug: string, query: CardSuggestionsParams, options?: RequestOptions): Promise<CardSuggestions> {
    return this.call('/api/v1/public/sellers/{slug}/card-suggestions', 'get', { path: { slug }, query }, options);
  }

  /**
   * POST /public/sellers/{slug}/want-list/resolve (public): a typed or pasted want list (one card
   * per line), each line read and resolved against the catalogue, or its error. Creates nothing.
   */
  resolveWantList(slug: string, body: WantListTextParams, options?: RequestOptions): Promise<ResolvedWantList> {
    return this.call('/api/v1/public/sellers/{slug}/want-list/resolve', 'post', { path: { slug }, body }, options);
  }

  /**
   * POST /public/sellers/{slug}/want-list (public): what the widget's form sends — each card a
   * buyer request (`source: "widget"`, only `cardName` required); the answer has the buyer id and
   * one result per card (its criteria and match count).
   */
  submitWantList(slug: string, body: WantListParams, options?: RequestOptions): Promise<WantListReceived> {
    return this.call('/api/v1/public/sellers/{slug}/want-list', 'post', { path: { slug }, body }, options);
  }

  /** The widget script, `/widget.js`: `<script src="…" data-seller="<slug>" data-theme="auto" async>`. */
  scriptUrl(): string {
    return `${this.siteUrl}${encodePath`/widget.js`}`;
  }
}
