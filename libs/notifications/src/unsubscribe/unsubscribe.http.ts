// The one-click unsubscribe of a buyer's in-stock emails: no sign-in, the signed token from the
// email is the authority (unsubscribe-token.ts; verified in constant time). RFC 8058: the email's
// `List-Unsubscribe: <…/email/unsubscribe/TOKEN>` and `List-Unsubscribe-Post:
// List-Unsubscribe=One-Click` let a mail client POST to the link at once; a person who opens it
// gets a page (GET never changes anything: link scanners fetch it) with one button that POSTs.
// Recorded as `buyer.unsubscribed` on the buyer's notice stream: the emails waiting and every later
// match are suppressed.
import { Controller, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

import { ApiError, ApiOperation, CLOCK, type Clock, EVENT_STORE, type EventStore, Public } from '@app/platform';
import { handleCommand } from '@app/platform/domain';

import { BuyerEmailSettings } from '../buyer-email.config';
import { buyerNoticeAggregate } from '../buyer-notice/buyer-notice.aggregate';
import { buyerNoticeStream } from '../buyer-notice/buyer-notice.events';
import { unsubscribeParams } from '../buyer-notice/buyer-notice.schemas';
import { escapeHtml } from '../email/in-stock-email';
import type { UnsubscribeSubject } from './unsubscribe-token';

const TAGS = ['Notifications'];
/** The page's policy: no script at all, its own inline style only, the form posting to itself. */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="robots" content="noindex">` +
    `<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#111827}` +
    `button{font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:0;background:#1d4ed8;color:#fff;cursor:pointer}</style></head>` +
    `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`
  );
}

@Controller('email/unsubscribe')
export class UnsubscribeController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly config: BuyerEmailSettings,
  ) {}

  @Get(':token')
  @Public()
  @ApiOperation({
    operationId: 'getUnsubscribePage',
    summary: 'The unsubscribe page of a buyer email (HTML, public)',
    description: 'Asks the buyer to confirm with one button (a POST to the same address). Changes nothing by itself. `404 NOT_FOUND` for a token that does not verify.',
    tags: TAGS,
    params: unsubscribeParams,
    responses: { 200: { description: 'The page', schema: z.string(), contentType: 'text/html' } },
  })
  confirm(@Param() params: z.output<typeof unsubscribeParams>, @Res({ passthrough: true }) reply: FastifyReply): string {
    this.verified(params.token);
    this.headers(reply);
    return page(
      'Stop these emails?',
      `<p>You will no longer get an email when a card from your want list is in stock at this shop.</p>` +
        `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
    );
  }

  @Post(':token')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'unsubscribe',
    summary: 'Unsubscribe a buyer from in-stock emails (RFC 8058 one-click, public)',
    description:
      'What a mail client sends for `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (a form body `List-Unsubscribe=One-Click`), and what the page\'s button sends. ' +
      'Records the unsubscription (the emails waiting are not sent, later matches are never emailed); again is a no-op. `404 NOT_FOUND` for a token that does not verify.',
    tags: TAGS,
    params: unsubscribeParams,
    responses: { 200: { description: 'Unsubscribed (a page saying so)', schema: z.string(), contentType: 'text/html' } },
  })
  async unsubscribe(@Param() params: z.output<typeof unsubscribeParams>, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const subject = this.verified(params.token);
    this.headers(reply);
    await handleCommand(
      this.events,
      buyerNoticeStream(subject.buyerId),
      buyerNoticeAggregate,
      { type: 'Unsubscribe', buyerId: subject.buyerId, policy: this.config.policy, now: this.clock.now() },
      { workspaceId: subject.workspaceId, actor: 'unsubscribe-link' },
    );
    return page('You are unsubscribed', '<p>You will get no more emails about your want list from this shop.</p>');
  }

  private headers(reply: FastifyReply): void {
    void reply.header('Content-Type', 'text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Content-Security-Policy', PAGE_CSP).header('Referrer-Policy', 'no-referrer');
  }

  /** The token's subject; a token that does not verify is 404 in the API's error shape. */
  private verified(token: string): UnsubscribeSubject {
    const subject = this.config.verifyUnsubscribe(token);
    if (!subject) throw new ApiError(404, 'NOT_FOUND', 'This unsubscribe link is not valid: copy the whole link from the email');
    return subject;
  }
}
