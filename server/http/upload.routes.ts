import express, { type RequestHandler, Router } from 'express';
import { UPLOAD_MAX_BYTES } from '../../src/schemas/extension.ts';
import { clock } from '../clock.ts';
import type { AppDeps } from '../deps.ts';
import { claimUploadKey, releaseUploadKey } from '../domain/uploads/uploads.service.ts';
import { requestLanguage, translator } from '../i18n.ts';
import { errorFields, log } from '../log.ts';
import { LOCAL_UPLOAD_PATH, LocalStorage } from '../storage/local.ts';

/** The form's own fields and multipart framing around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** Uploads come from the extension's background page, which may run on any origin. */
const uploadCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method !== 'OPTIONS') return next();
  res.setHeader('Access-Control-Allow-Methods', 'POST');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
  res.status(204).end();
};

const fieldOf = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : undefined;
};

/**
 * `POST /upload`: the local store's upload target (the object-storage browser POST of S3), only
 * when STORAGE is local. The form's policy must carry this server's signature, be unexpired and
 * name the posted key, and the file must fit its size limit; anything else is a 403 that stores
 * nothing. A key takes one file: a policy posted again (or twice at once) is a 409 that says so.
 * Success is a bare 200, as `success_action_status` asks.
 */
export function uploadRoutes(deps: AppDeps): Router {
  const router = Router();
  const storage = deps.storage;
  if (!(storage instanceof LocalStorage)) return router;
  router.use(LOCAL_UPLOAD_PATH, uploadCors);
  router.post(
    LOCAL_UPLOAD_PATH,
    express.raw({ type: 'multipart/form-data', limit: UPLOAD_MAX_BYTES + FORM_OVERHEAD_BYTES }),
    async (req, res) => {
      let form: FormData;
      try {
        if (!Buffer.isBuffer(req.body)) throw new Error('not multipart');
        form = await new Response(new Uint8Array(req.body), {
          headers: { 'content-type': req.get('content-type') ?? '' },
        }).formData();
      } catch {
        res.status(400).json({ error: { code: 'malformed' } });
        return;
      }
      const file = form.get('file');
      if (!(file instanceof Blob)) {
        res.status(400).json({ error: { code: 'malformed' } });
        return;
      }
      const fields = {
        key: fieldOf(form, 'key'),
        policy: fieldOf(form, 'policy'),
        signature: fieldOf(form, 'Signature'),
      };
      try {
        const refusal = await storage.checkUpload(fields, file.size, clock.now());
        if (refusal) {
          log.info('upload refused', { refusal });
          res.status(403).json({ error: { code: 'AccessDenied' } });
          return;
        }
        const key = fields.key as string;
        const em = deps.orm.em.fork();
        if (!(await claimUploadKey(em, key))) {
          const t = translator(requestLanguage(req));
          res.status(409).json({ error: { code: 'KeyAlreadyUsed', message: t('errors.uploadKeyUsed') } });
          return;
        }
        try {
          await storage.write(key, Buffer.from(await file.arrayBuffer()));
        } catch (error) {
          await releaseUploadKey(em, key);
          throw error;
        }
        res.status(200).end();
      } catch (error) {
        log.error('upload failed', errorFields(error));
        res.status(500).json({ error: { code: 'internal' } });
      }
    },
  );
  return router;
}
