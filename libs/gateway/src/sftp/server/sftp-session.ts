import type { Attributes, FileEntry, SFTPWrapper } from 'ssh2';
import { utils } from 'ssh2';
import { displayPath, resolveAreaPath, type AreaPath } from '../area/path-policy';
import { UploadError, type UploadImport } from '../upload/upload-import';
import type { SftpUploads } from '../upload/sftp-uploads.service';

const { OPEN_MODE, STATUS_CODE } = utils.sftp;
const MAX_OPEN_HANDLES = 16;
const DIRECTORY_MODE = 0o040700;
const FILE_MODE = 0o100600;

type Handle =
  | { kind: 'dir'; listed: boolean }
  | { kind: 'file'; upload: UploadImport; queue: Promise<unknown>; error?: string };

/**
 * One SFTP channel of a signed-in workspace: a write-only drop box. The client sees the workspace's upload area
 * as `/`; files opened for writing there are imported as they arrive (see UploadImport) and acknowledged on
 * close only once their events are durable. Nothing can be read, created outside the area, linked or deleted;
 * `ls`/`stat` show the workspace's recent uploads.
 */
export class SftpSession {
  private readonly handles = new Map<number, Handle>();
  private nextHandle = 1;

  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly workspaceId: string,
    private readonly remote: string,
    private readonly uploads: SftpUploads,
    private readonly onRefusal: (what: string, path: string, reason: string) => void,
  ) {
    sftp.on('REALPATH', (id, path) => this.within(id, path, 'realpath', (p) => sftp.name(id, [{ filename: displayPath(p), longname: displayPath(p), attrs: {} as Attributes }])));
    sftp.on('STAT', (id, path) => this.stat(id, path));
    sftp.on('LSTAT', (id, path) => this.stat(id, path));
    sftp.on('OPENDIR', (id, path) =>
      this.within(id, path, 'opendir', (p) => (p.kind === 'root' ? this.open(id, { kind: 'dir', listed: false }) : sftp.status(id, STATUS_CODE.NO_SUCH_FILE, 'not a directory'))),
    );
    sftp.on('READDIR', (id, handle) => this.readdir(id, handle));
    sftp.on('OPEN', (id, path, flags) => void this.openFile(id, path, flags));
    sftp.on('WRITE', (id, handle, offset, data) => this.write(id, handle, offset, data));
    sftp.on('READ', (id) => this.refuse(id, 'read', '', 'uploads cannot be read back; this area is write-only'));
    sftp.on('FSTAT', (id, handle) => this.fstat(id, handle));
    sftp.on('FSETSTAT', (id, handle) => sftp.status(id, this.handles.has(this.handleId(handle)) ? STATUS_CODE.OK : STATUS_CODE.FAILURE));
    sftp.on('SETSTAT', (id, path) => this.within(id, path, 'setstat', () => sftp.status(id, STATUS_CODE.OK)));
    sftp.on('CLOSE', (id, handle) => void this.close(id, handle));
    sftp.on('RENAME', (id, from, to) => this.rename(id, from, to));
    sftp.on('REMOVE', (id, path) => this.refuse(id, 'remove', path, 'files cannot be removed'));
    sftp.on('RMDIR', (id, path) => this.refuse(id, 'rmdir', path, 'directories cannot be removed'));
    sftp.on('MKDIR', (id, path) => this.refuse(id, 'mkdir', path, 'directories cannot be created; upload into /'));
    sftp.on('SYMLINK', (id, path) => this.refuse(id, 'symlink', path, 'links cannot be created'));
    sftp.on('READLINK', (id, path) => this.refuse(id, 'readlink', path, 'there are no links here'));
    // The client closing its side ends the subsystem: close ours too, or the client waits for it forever.
    sftp.on('end', () => sftp.end());
    sftp.on('close', () => this.abandon());
  }

  /** Uploads still open when the channel goes are logged as interrupted (their unpublished rest is dropped). */
  abandon(): void {
    for (const handle of this.handles.values()) {
      if (handle.kind === 'file' && handle.error === undefined) this.uploads.interrupted(this.workspaceId, handle.upload, this.remote);
    }
    this.handles.clear();
  }

  private within(id: number, raw: string, what: string, action: (path: AreaPath) => void): void {
    const verdict = resolveAreaPath(raw);
    if (!verdict.ok) return this.refuse(id, what, raw, verdict.message);
    action(verdict.path);
  }

  private refuse(id: number, what: string, path: string, message: string): void {
    this.onRefusal(what, path, message);
    this.sftp.status(id, STATUS_CODE.PERMISSION_DENIED, message);
  }

  private stat(id: number, raw: string): void {
    this.within(id, raw, 'stat', (path) => {
      if (path.kind === 'root') return this.sftp.attrs(id, attrs(DIRECTORY_MODE, 0, Math.floor(Date.now() / 1000)));
      const recent = this.uploads.recent.get(this.workspaceId, path.name);
      if (!recent) return this.sftp.status(id, STATUS_CODE.NO_SUCH_FILE, 'no such file');
      this.sftp.attrs(id, attrs(FILE_MODE, recent.size, recent.mtime));
    });
  }

  private readdir(id: number, raw: Buffer): void {
    const handle = this.handles.get(this.handleId(raw));
    if (handle?.kind !== 'dir') return this.sftp.status(id, STATUS_CODE.FAILURE, 'not a directory handle');
    if (handle.listed) return this.sftp.status(id, STATUS_CODE.EOF);
    handle.listed = true;
    const entries: FileEntry[] = this.uploads.recent.list(this.workspaceId).map((upload) => ({
      filename: upload.name,
      longname: `-rw-------    1 vigil    vigil    ${String(upload.size).padStart(10)} ${new Date(upload.mtime * 1000).toISOString().slice(0, 16).replace('T', ' ')} ${upload.name}`,
      attrs: attrs(FILE_MODE, upload.size, upload.mtime),
    }));
    if (entries.length === 0) return this.sftp.status(id, STATUS_CODE.EOF);
    this.sftp.name(id, entries);
  }

  private async openFile(id: number, raw: string, flags: number): Promise<void> {
    const verdict = resolveAreaPath(raw);
    if (!verdict.ok) return this.refuse(id, 'open', raw, verdict.message);
    if (verdict.path.kind === 'root') return this.refuse(id, 'open', raw, 'that is the upload area itself; upload files into it');
    if (flags & OPEN_MODE.READ) return this.refuse(id, 'read', raw, 'uploads cannot be read back; this area is write-only');
    if (!(flags & OPEN_MODE.WRITE)) return this.refuse(id, 'open', raw, 'files can only be opened for upload');
    if (this.handles.size >= MAX_OPEN_HANDLES) return this.sftp.status(id, STATUS_CODE.FAILURE, `at most ${MAX_OPEN_HANDLES} files open at once`);
    const begun = await this.uploads.begin(this.workspaceId, verdict.path.name);
    if (!begun.ok) return this.sftp.status(id, STATUS_CODE.FAILURE, begun.message);
    this.open(id, { kind: 'file', upload: begun.upload, queue: Promise.resolve() });
  }

  private write(id: number, raw: Buffer, offset: number, data: Buffer): void {
    const handle = this.handles.get(this.handleId(raw));
    if (handle?.kind !== 'file') return this.sftp.status(id, STATUS_CODE.FAILURE, 'not an upload handle');
    // Writes of one file are applied in order; the client waits for each answer (flow control while publishing).
    handle.queue = handle.queue.then(async () => {
      if (handle.error !== undefined) return this.sftp.status(id, STATUS_CODE.FAILURE, handle.error);
      try {
        await handle.upload.write(offset, data);
        this.sftp.status(id, STATUS_CODE.OK);
      } catch (error) {
        if (!(error instanceof UploadError)) throw error;
        handle.error = this.uploads.failed(this.workspaceId, handle.upload, this.remote, error);
        this.sftp.status(id, STATUS_CODE.FAILURE, handle.error);
      }
    });
    handle.queue = handle.queue.catch(() => this.sftp.status(id, STATUS_CODE.FAILURE, 'internal error'));
  }

  private fstat(id: number, raw: Buffer): void {
    const handle = this.handles.get(this.handleId(raw));
    if (!handle) return this.sftp.status(id, STATUS_CODE.FAILURE, 'unknown handle');
    const now = Math.floor(Date.now() / 1000);
    this.sftp.attrs(id, handle.kind === 'dir' ? attrs(DIRECTORY_MODE, 0, now) : attrs(FILE_MODE, handle.upload.summary.bytes, now));
  }

  private async close(id: number, raw: Buffer): Promise<void> {
    const key = this.handleId(raw);
    const handle = this.handles.get(key);
    if (!handle) return this.sftp.status(id, STATUS_CODE.FAILURE, 'unknown handle');
    if (handle.kind === 'dir') {
      this.handles.delete(key);
      return this.sftp.status(id, STATUS_CODE.OK);
    }
    await handle.queue;
    this.handles.delete(key);
    if (handle.error !== undefined) return this.sftp.status(id, STATUS_CODE.FAILURE, handle.error);
    const failure = await this.uploads.finish(this.workspaceId, handle.upload, this.remote).catch((error: unknown) => `import failed: ${String(error)}`);
    this.sftp.status(id, failure === undefined ? STATUS_CODE.OK : STATUS_CODE.FAILURE, failure);
  }

  /** Renaming an upload in the area (upload-then-rename shippers) renames its listing; the import is done. */
  private rename(id: number, from: string, to: string): void {
    this.within(id, from, 'rename', (source) =>
      this.within(id, to, 'rename', (target) => {
        if (source.kind !== 'file' || target.kind !== 'file') return this.refuse(id, 'rename', from, 'only files in the area can be renamed');
        const renamed = this.uploads.recent.rename(this.workspaceId, source.name, target.name);
        this.sftp.status(id, renamed ? STATUS_CODE.OK : STATUS_CODE.NO_SUCH_FILE, renamed ? undefined : 'no such file');
      }),
    );
  }

  private open(id: number, handle: Handle): void {
    const key = this.nextHandle++;
    this.handles.set(key, handle);
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(key >>> 0);
    this.sftp.handle(id, buffer);
  }

  private handleId(raw: Buffer): number {
    return raw.length === 4 ? raw.readUInt32BE(0) : -1;
  }
}

function attrs(mode: number, size: number, mtime: number): Attributes {
  return { mode, uid: 0, gid: 0, size, atime: mtime, mtime };
}
