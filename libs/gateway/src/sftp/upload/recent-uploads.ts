/** A file a workspace uploaded recently, as its area lists it (uploads are imported, not stored). */
export interface RecentUpload {
  name: string;
  size: number;
  /** Seconds since the epoch. */
  mtime: number;
  outcome: 'imported' | 'failed';
}

/** The last uploads of each workspace (bounded), so `ls` and `stat` in the area show what arrived. */
export class RecentUploads {
  private readonly byWorkspace = new Map<string, Map<string, RecentUpload>>();

  constructor(
    private readonly perWorkspace = 200,
    private readonly maxWorkspaces = 10_000,
  ) {}

  add(workspaceId: string, upload: RecentUpload): void {
    let uploads = this.byWorkspace.get(workspaceId);
    if (!uploads) {
      if (this.byWorkspace.size >= this.maxWorkspaces) this.byWorkspace.delete(this.byWorkspace.keys().next().value as string);
      this.byWorkspace.set(workspaceId, (uploads = new Map()));
    }
    uploads.delete(upload.name);
    uploads.set(upload.name, upload);
    while (uploads.size > this.perWorkspace) uploads.delete(uploads.keys().next().value as string);
  }

  get(workspaceId: string, name: string): RecentUpload | undefined {
    return this.byWorkspace.get(workspaceId)?.get(name);
  }

  list(workspaceId: string): RecentUpload[] {
    return [...(this.byWorkspace.get(workspaceId)?.values() ?? [])];
  }

  rename(workspaceId: string, from: string, to: string): boolean {
    const upload = this.get(workspaceId, from);
    if (!upload) return false;
    this.byWorkspace.get(workspaceId)!.delete(from);
    this.add(workspaceId, { ...upload, name: to });
    return true;
  }
}
