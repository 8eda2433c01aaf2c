// Request schemas of the embeds (badge, QR code, scan link, verification page assets).
import { z } from 'zod';

export const badgeQuery = z.object({ theme: z.enum(['light', 'dark']).optional().meta({ description: 'Default light.' }) });
export const scanQuery = z.object({ via: z.enum(['badge', 'qr']).optional().meta({ description: 'Where the visitor came from (default badge).' }) });
export const verifyAssetParams = z.object({ file: z.enum(['verify.js', 'verify.css']).meta({ description: 'The page\'s script or stylesheet.', examples: ['verify.js'] }) });
