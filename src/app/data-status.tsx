import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useToast } from '../components/toast/toast-context';
import { isDataError } from '../db/storage/errors';
import { whenIdle } from '../db/storage/idle';
import { paths } from '../config/paths';
import type { MirrorReport, StartupProgress } from '../db/startup';
import { plural } from '../lib/format';
import { databaseExists } from '../db/storage/database-exists';
import { firstFrameSamplesAt } from '../db/storage/first-frame';

export type DataStatus = 'starting' | 'ready' | 'unavailable' | 'outdated';

interface DataStatusValue {
  status: DataStatus;
  /** While the first start brings a large legacy copy in: how far it has come. */
  progress?: StartupProgress;
  /** Starts the data layer now (protected screens need it at once). */
  start: () => void;
}

const DataStatusContext = createContext<DataStatusValue>({ status: 'starting', start: () => undefined });

export function useDataStatus(): DataStatusValue {
  return useContext(DataStatusContext);
}

function reportToast(report: MirrorReport) {
  if (report.kind === 'corrupt') {
    return {
      title: 'Saved posts could not be read',
      description: `A copy of posts left by an older version was damaged. It was kept aside as "${report.key}"; nothing was overwritten.`,
      variant: 'error' as const,
    };
  }
  return {
    title: 'Some saved posts were skipped',
    description: `${plural(report.count, 'entry', 'entries')} in the copy left by an older version could not be read. ${report.reason}`,
    variant: 'error' as const,
  };
}

/** The screens a visitor sees: they never wait for the database code. */
const PUBLIC_PATHS = new Set<string>([paths.home, paths.about, paths.login]);

/**
 * Starts the data layer (open IndexedDB, import the legacy copy, seed, mirror) once per page: at
 * once for protected screens, otherwise when the browser is idle after the first paint, so that
 * public pages never wait for the database code.
 */
export function DataProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<DataStatus>('starting');
  const [progress, setProgress] = useState<StartupProgress | undefined>(undefined);
  const showToast = useToast();
  const started = useRef(false);

  const start = useCallback(() => {
    if (started.current) return;
    started.current = true;
    // Sync (connected mode) loads with the data layer, after the first paint; it decides the mode.
    const sync = import('../sync/start');
    const options = {
      connected: () => sync.then(async ({ isConnected }) => isConnected()).catch(() => false),
      samplesAt: firstFrameSamplesAt,
    };
    void import('../db/startup')
      .then(async ({ startDataLayer, whenDataUsable, onDatabaseOutdated, onMirrorReport, onStartupProgress }) => {
        onMirrorReport((report) => showToast(reportToast(report)));
        const stopProgress = onStartupProgress(setProgress);
        onDatabaseOutdated(() => setStatus('outdated'));
        // A database already upgraded by a newer version reads as "outdated" (reload), not "unavailable".
        const failed = (error: unknown): DataStatus => (isDataError(error, 'database_outdated') ? 'outdated' : 'unavailable');
        const usable = await whenDataUsable(options);
        stopProgress();
        setStatus((current) => (current === 'outdated' ? current : usable.ok ? 'ready' : failed(usable.error)));
        // The catch-up with the server starts as soon as screens can read (issue 40), not after the
        // deferred work of a later start (the older build's copy, read once the first posts show).
        const startSyncNow = () => void sync.then(({ startSync }) => startSync()).catch(() => undefined);
        if (usable.ok) startSyncNow();
        const result = await startDataLayer(options);
        if (result.ok) startSyncNow();
        if (!result.ok) {
          setStatus((current) => (current === 'outdated' ? current : failed(result.error)));
          console.warn('Insight Exchange storage is unavailable', result.error);
        }
      })
      .catch((error: unknown) => {
        // The data layer's code could not be loaded (offline before it was cached): say so, and let
        // the next screen that needs it try again.
        started.current = false;
        setStatus((current) => (current === 'outdated' ? current : 'unavailable'));
        console.warn('Insight Exchange could not load its data layer', error);
      });
  }, [showToast]);

  useEffect(() => {
    // A page opened on a member's screen (a deep link, a reload) needs the data at once: its code
    // starts loading now, alongside the screen's own, instead of after the screen's frame renders.
    if (!PUBLIC_PATHS.has(location.pathname)) return start();
    // On a public page, when the browser is idle: where there is data to keep up (the database). A new
    // browser has none (an older build's posts are brought in by the first member screen, behind the
    // forum's first frame): its code waits for a member's screen (issue 64, item 2).
    let live = true;
    const stop = whenIdle(
      () =>
        void databaseExists().then((held) => {
          if (held && live) start();
        }),
    );
    return () => {
      live = false;
      stop();
    };
  }, [start]);

  const value = useMemo(() => ({ status, progress: status === 'starting' ? progress : undefined, start }), [status, progress, start]);
  return <DataStatusContext.Provider value={value}>{children}</DataStatusContext.Provider>;
}
