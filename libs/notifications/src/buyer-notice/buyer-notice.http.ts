// HTTP: /api/v1/notifications — the emails the widget's buyers got (or did not, and why), by
// pseudonymous buyer id; a preview of the email with sample data and the seller's settings; the
// outbox (emails written to DATA_DIR/outbox when no SMTP_URL is set). Scoped to the caller's workspace.
import { Controller, Get, Inject, Param, Query as QueryParams, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

import { WorkspaceDirectory } from '@app/access';
import { ApiError, ApiOperation, Auth, type AuthContext, type ListResponse, RequireScope, toListResponse } from '@app/platform';
import { NOTIFICATION_SETTINGS_READER, type NotificationSettingsReader } from '@app/widget';

import { BuyerEmailSettings } from '../buyer-email.config';
import { headerText, renderInStockEmail, SAMPLE_LINES } from '../email/in-stock-email';
import { ListNotificationsQuery } from './buyer-notice.queries';
import {
  listNotificationsQuery,
  notificationExample,
  notificationIdParams,
  notificationListResponse,
  type NotificationResponse,
  outboxExample,
  outboxResponse,
  previewExample,
  previewResponse,
  toNotificationResponse,
} from './buyer-notice.schemas';

const TAGS = ['Notifications'];
/** The sample buyer the preview's unsubscribe link names (no such buyer exists). */
const SAMPLE_BUYER = 'buyer_aaaaaaaaaaaaaaaaaaaaaaaaaa';

@Controller('api/v1/notifications')
export class NotificationsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly config: BuyerEmailSettings,
    private readonly workspaces: WorkspaceDirectory,
    @Inject(NOTIFICATION_SETTINGS_READER) private readonly settings: NotificationSettingsReader,
  ) {}

  @Get()
  @RequireScope('read:requests')
  @ApiOperation({
    operationId: 'listNotifications',
    summary: "Your want-list buyers' in-stock emails",
    description:
      'Newest first: each email (or the matches not emailed, and why), the matches it covered, its attempts and last error, by pseudonymous buyer id — never the address. ' +
      'At most one email per buyer an hour; a failed send is retried with backoff and shows `retrying`, then `failed` when given up.',
    tags: TAGS,
    query: listNotificationsQuery,
    responses: { 200: { description: 'A page of emails', schema: notificationListResponse, example: { data: [notificationExample], nextCursor: null } } },
  })
  async list(@Auth() auth: AuthContext, @QueryParams() query: z.output<typeof listNotificationsQuery>): Promise<ListResponse<NotificationResponse>> {
    return toListResponse(await this.queries.execute(new ListNotificationsQuery(auth.workspaceId, query.buyerId, query.limit, query.cursor)), toNotificationResponse);
  }

  @Get('preview')
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'previewNotification',
    summary: 'The in-stock email as your buyers get it, with sample data',
    description: 'Rendered with your settings (`PUT /api/v1/widget/settings/notifications`): subject, From, Reply-To, the unsubscribe headers, text and HTML.',
    tags: TAGS,
    responses: { 200: { description: 'The rendered email', schema: previewResponse, example: previewExample } },
  })
  async preview(@Auth() auth: AuthContext): Promise<z.output<typeof previewResponse>> {
    const { settings } = await this.settings.notificationSettings(auth.workspaceId);
    const shopName = headerText(settings.shopName ?? (await this.workspaces.byId(auth.workspaceId))?.name ?? 'Your card shop') || 'Your card shop';
    const unsubscribeUrl = this.config.unsubscribeUrl({ workspaceId: auth.workspaceId, buyerId: SAMPLE_BUYER });
    const rendered = renderInStockEmail({ shopName, shopUrl: settings.shopUrl, unsubscribeUrl, lines: SAMPLE_LINES });
    return {
      ...rendered,
      from: `"${shopName.replace(/["\\]/g, '')}" <${this.config.fromAddress}>`,
      replyTo: settings.replyTo,
      headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    };
  }

  @Get('outbox')
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'listNotificationOutbox',
    summary: 'The emails written to the outbox (no SMTP_URL set)',
    description: 'Newest first, at most 100: the `.eml` files under DATA_DIR/outbox for your workspace. With SMTP_URL set, emails go to the SMTP server and none is written here.',
    tags: TAGS,
    responses: { 200: { description: 'The outbox', schema: outboxResponse, example: outboxExample } },
  })
  outbox(@Auth() auth: AuthContext): z.output<typeof outboxResponse> {
    return { transport: this.config.mailer.transport, data: this.config.outbox.list(auth.workspaceId, 100) };
  }

  @Get('outbox/:id')
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'getNotificationOutboxMessage',
    summary: 'One email of the outbox, as sent (message/rfc822)',
    description: "The raw message with its headers. It holds the buyer's address: it is deleted when the buyer's personal data is erased.",
    tags: TAGS,
    params: notificationIdParams,
    responses: { 200: { description: 'The message', schema: z.string(), contentType: 'message/rfc822' } },
  })
  message(@Auth() auth: AuthContext, @Param() params: z.output<typeof notificationIdParams>, @Res({ passthrough: true }) reply: FastifyReply): string {
    const raw = this.config.outbox.read(auth.workspaceId, params.id);
    if (!raw) throw ApiError.notFound('outbox message', params.id);
    void reply.header('Content-Type', 'message/rfc822').header('Cache-Control', 'no-store');
    return raw.toString('utf8');
  }
}
