// HTTP: /api/v1/widget/settings — the embed snippet and the origins allowed to use a workspace's
// want-list widget (admin).
import { Body, Controller, Get, Inject, Put, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { WorkspaceDirectory } from '@app/access';
import { ApiError, ApiOperation, APP_CONFIG, type AppConfig, Auth, type AuthContext, IfMatch, publicBaseUrl, RequireScope, setETag } from '@app/platform';

import { SetNotificationSettingsCommand, SetWidgetSettingsCommand } from './widget-settings.handlers';
import { NOTIFICATION_SETTINGS_READER, type NotificationSettingsReader, type NotificationSettingsView, type VersionedWidgetSettings, WidgetSettingsReader } from './widget-settings.queries';
import {
  notificationSettingsBody,
  notificationSettingsExample,
  notificationSettingsResponse,
  updateWidgetSettingsBody,
  widgetSettingsExample,
  widgetSettingsResponse,
} from './widget-settings.schemas';

const TAGS = ['Widget'];
type WidgetSettingsResponse = z.output<typeof widgetSettingsResponse>;

@Controller('api/v1/widget/settings')
export class WidgetSettingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly settings: WidgetSettingsReader,
    private readonly workspaces: WorkspaceDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(NOTIFICATION_SETTINGS_READER) private readonly notifications: NotificationSettingsReader,
  ) {}

  @Get('notifications')
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'getNotificationSettings',
    versioned: 'etag',
    summary: 'The emails your want-list buyers get when a card they want is in stock',
    description:
      'Whether buyers who left their email in the widget are emailed when a card they asked for arrives (at most one email per buyer an hour, ' +
      'matches gathered into one; never twice for one match), and how the email presents your shop. The preview: `GET /api/v1/notifications/preview`.',
    tags: TAGS,
    responses: { 200: { description: 'The settings', schema: notificationSettingsResponse, example: notificationSettingsExample } },
  })
  async getNotifications(@Auth() auth: AuthContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<z.output<typeof notificationSettingsResponse>> {
    return this.notificationsAnswer(reply, await this.notifications.notificationSettings(auth.workspaceId));
  }

  @Put('notifications')
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'updateNotificationSettings',
    versioned: 'if-match',
    summary: 'Set the emails your want-list buyers get when a card they want is in stock',
    description:
      'Replaces the settings: on or off, the shop name the email shows, the reply-to address and the shop URL it links to (https; http only on localhost). ' +
      'Off, matches found meanwhile are recorded as suppressed and never emailed later.',
    tags: TAGS,
    body: notificationSettingsBody,
    bodyExample: { enabled: true, shopName: 'Acme Cards', replyTo: 'hello@acme.example', shopUrl: 'https://shop.acme.example' },
    responses: { 200: { description: 'The settings as they are now', schema: notificationSettingsResponse, example: notificationSettingsExample } },
  })
  async updateNotifications(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof notificationSettingsBody>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<z.output<typeof notificationSettingsResponse>> {
    const decided = await this.commands.execute(new SetNotificationSettingsCommand(auth.workspaceId, auth.keyId, body, String(request.id), ifMatch));
    return this.notificationsAnswer(reply, decided);
  }

  private notificationsAnswer(reply: FastifyReply, { settings, updatedAt, revision }: NotificationSettingsView): z.output<typeof notificationSettingsResponse> {
    if (revision >= 0) setETag(reply, revision);
    return { ...settings, updatedAt };
  }

  @Get()
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'getWidgetSettings',
    versioned: 'etag',
    summary: 'Your want-list widget: its snippet and allowed origins',
    description: 'The `ETag` is the version of the settings (none until they are first set).',
    tags: TAGS,
    responses: { 200: { description: 'The settings', schema: widgetSettingsResponse, example: widgetSettingsExample } },
  })
  async get(@Auth() auth: AuthContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<WidgetSettingsResponse> {
    return this.answer(auth.workspaceId, reply, await this.settings.versioned(auth.workspaceId));
  }

  @Put()
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'updateWidgetSettings',
    versioned: 'if-match',
    summary: 'Set the origins allowed to use your want-list widget',
    description:
      'Replaces the list. With a list, only pages of those origins may send want lists and read card suggestions ' +
      '(a browser request from another origin is refused with 403 ORIGIN_NOT_ALLOWED, without CORS headers); an empty list allows any page. ' +
      'In force when answered: every widget request after the answer is held to the new list (with several API processes on one MongoDB, the others within a second).',
    tags: TAGS,
    body: updateWidgetSettingsBody,
    bodyExample: { allowedOrigins: ['https://shop.acme.example'] },
    responses: { 200: { description: 'The settings as they are now', schema: widgetSettingsResponse, example: widgetSettingsExample } },
  })
  async update(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof updateWidgetSettingsBody>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WidgetSettingsResponse> {
    // In force in this process's gate once the command returns, and in the read model the GET
    // reads; the answer is what it decided.
    const settings = await this.commands.execute(new SetWidgetSettingsCommand(auth.workspaceId, auth.keyId, body.allowedOrigins, String(request.id), ifMatch));
    return this.answer(auth.workspaceId, reply, settings);
  }

  private async answer(workspaceId: string, reply: FastifyReply, { view: settings, revision }: VersionedWidgetSettings): Promise<WidgetSettingsResponse> {
    const workspace = await this.workspaces.byId(workspaceId);
    if (!workspace) throw ApiError.notFound('workspace', workspaceId);
    // Settings never set have no stream yet, so no version to name.
    if (revision >= 0) setETag(reply, revision);
    // PUBLIC_BASE_URL, else this server's own address (not a guessed port).
    const scriptUrl = `${publicBaseUrl(this.config)}/widget.js`;
    return {
      seller: workspace.slug,
      allowedOrigins: settings.allowedOrigins,
      updatedAt: settings.updatedAt,
      scriptUrl,
      snippet: `<script src="${scriptUrl}" data-seller="${workspace.slug}" data-theme="auto" async></script>`,
    };
  }
}
