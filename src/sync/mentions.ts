// GET /api/members?q= (issue 42): the server's members whose name starts with what was typed after
// `@`, for a connected device's editor (at most 8, public id and name).
import { z } from 'zod';
import { createApi, type SyncApi } from './api';

const answerSchema = z.object({ members: z.array(z.object({ id: z.string(), name: z.string() })).max(50) });

const defaultApi = (): SyncApi => createApi((input, init) => fetch(input, init));

export async function serverMentionCandidates(typed: string, api: SyncApi = defaultApi()): Promise<{ id: string; name: string }[]> {
  if (!api.send) throw new Error('This client cannot ask the server for members.');
  return (await api.send('GET', `/api/members?${new URLSearchParams({ q: typed }).toString()}`, undefined, answerSchema)).members;
}
