import { CoalescingInserter } from './coalescing-inserter';

describe('CoalescingInserter', () => {
  it('runs one insert at a time and sends what queued meanwhile together, within the byte cap', async () => {
    const inserts: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const inserter = new CoalescingInserter(async (body) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inserts.push(body.toString());
      inFlight--;
    }, { maxBytes: 6 });
    await Promise.all(['a\n', 'b\n', 'c\n', 'd\n', 'e\n'].map((row) => inserter.add(Buffer.from(row))));
    expect(maxInFlight).toBe(1);
    expect(inserts).toEqual(['a\n', 'b\nc\nd\n', 'e\n']);
  });

  it('takes a body in pieces, joined in order and counted by their bytes against the cap', async () => {
    const inserts: string[] = [];
    const inserter = new CoalescingInserter(async (body) => {
      await new Promise((r) => setTimeout(r, 5));
      inserts.push(body.toString());
    }, { maxBytes: 8 });
    const pieces = (...rows: string[]) => rows.flatMap((row) => [Buffer.from(row), Buffer.from('\n')]);
    await Promise.all([inserter.add(pieces('a')), inserter.add(pieces('bb', 'c')), inserter.add(pieces('dd')), inserter.add(Buffer.from('e\n')), inserter.add(pieces('ff'))]);
    expect(inserts).toEqual(['a\n', 'bb\nc\ndd\n', 'e\nff\n']);
  });

  it('sends a body larger than the cap on its own, whole', async () => {
    const inserts: number[] = [];
    const inserter = new CoalescingInserter(async (body) => void inserts.push(body.length), { maxBytes: 4 });
    await Promise.all([inserter.add(Buffer.alloc(10)), inserter.add(Buffer.alloc(3))]);
    expect(inserts).toEqual([10, 3]);
  });

  it('joins inserts in one reused buffer, and never again in the one a failed insert had', async () => {
    const seen: { text: string; memory: ArrayBuffer }[] = [];
    let failNext = false;
    const inserter = new CoalescingInserter(async (body) => {
      seen.push({ text: body.toString(), memory: body.buffer as ArrayBuffer });
      await new Promise((r) => setTimeout(r, 5));
      if (failNext) {
        failNext = false;
        throw new Error('engine down');
      }
    }, { maxBytes: 6 });
    const rows = (...texts: string[]) => texts.map((text) => Buffer.from(text));
    await Promise.all([inserter.add(rows('a\n')), inserter.add(rows('b\n', 'c\n')), inserter.add(rows('d\n'))]);
    await inserter.add(rows('e\n', 'f\n'));
    failNext = true;
    await expect(inserter.add(rows('g\n', 'h\n'))).rejects.toThrow('engine down');
    await inserter.add(rows('i\n', 'j\n'));
    expect(seen.map((s) => s.text)).toEqual(['a\n', 'b\nc\nd\n', 'e\nf\n', 'g\nh\n', 'i\nj\n']);
    const [, first, second, failed, after] = seen.map((s) => s.memory);
    expect(second).toBe(first);
    expect(failed).toBe(first);
    expect(after).not.toBe(failed);
  });

  it('rejects the callers whose rows were in a failed insert, and goes on with the next ones', async () => {
    let calls = 0;
    const inserter = new CoalescingInserter(async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 1));
      if (calls === 2) throw new Error('disk full');
    }, { maxBytes: 100 });
    const results = await Promise.allSettled([inserter.add(Buffer.from('1')), inserter.add(Buffer.from('2')), inserter.add(Buffer.from('3'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    await expect(inserter.add(Buffer.from('4'))).resolves.toBeUndefined();
  });

  it('lingers for more rows until the insert is full or the oldest row has waited lingerMs', async () => {
    const inserts: { body: string; afterMs: number }[] = [];
    const started = Date.now();
    const inserter = new CoalescingInserter(async (body) => void inserts.push({ body: body.toString(), afterMs: Date.now() - started }), {
      maxBytes: 6,
      lingerMs: 200,
    });
    const first = inserter.add(Buffer.from('a\n'));
    await new Promise((r) => setTimeout(r, 50));
    const second = inserter.add(Buffer.from('b\n'));
    await Promise.all([first, second]);
    // Two small rows lingered together and went after the linger of the first.
    expect(inserts.map((i) => i.body)).toEqual(['a\nb\n']);
    expect(inserts[0].afterMs).toBeGreaterThanOrEqual(190);

    // A full insert does not wait.
    const fullStarted = Date.now();
    await Promise.all([inserter.add(Buffer.from('c\nd\n')), inserter.add(Buffer.from('e\n'))]);
    expect(inserts.slice(1).map((i) => i.body)).toEqual(['c\nd\ne\n']);
    expect(Date.now() - fullStarted).toBeLessThan(150);
  });
});
