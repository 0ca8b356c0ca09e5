// Two-step verification's wire shapes (issue 63): Profile's panel (status, setup, turning it on and
// off, new recovery codes) and the admin's "Require two-step verification for staff". The sign-in's
// code request is sign-in.ts's twoStepRequestSchema.
import { z } from 'zod';
import { twoStepRequestSchema } from './sign-in';

/** GET /api/account/two-step. */
export const twoStepStatusSchema = z.object({
  on: z.boolean(),
  recoveryCodesLeft: z.number().int().min(0),
  /** The admin requires it of this account (a staff account, while the setting is on). */
  required: z.boolean(),
});
export type TwoStepStatus = z.infer<typeof twoStepStatusSchema>;

/** POST /api/account/two-step/setup: the new key (grouped by four), its otpauth:// URI and its QR code (an SVG data URL). */
export const twoStepSetupSchema = z.object({ key: z.string(), uri: z.string(), qr: z.string() });
export type TwoStepSetup = z.infer<typeof twoStepSetupSchema>;

/** POST /api/account/two-step/enable: the code the app shows for the new key. */
export const twoStepEnableSchema = z.object({ code: twoStepRequestSchema.options[0].shape.code }).strict();

/** The ten recovery codes, shown once (enable and POST /api/account/two-step/recovery-codes). */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

/** GET / PUT /api/admin/security: the admin's security settings. */
export const securitySettingsSchema = z.object({ requireTwoStepForStaff: z.boolean() }).strict();
export type SecuritySettings = z.infer<typeof securitySettingsSchema>;
