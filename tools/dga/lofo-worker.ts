/**
 * A worker process of tools/dga/lofo.ts: loads the training data once, then trains one leave-family-out model
 * per `train` message and writes it (atomically: temporary file, then rename) where the message says.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { DEFAULT_CONFIG, loadTrainingData, trainingSet, trainModel, type TrainingData } from './train';

interface TrainMessage {
  type: 'train';
  dataDir: string;
  leftOut: string[];
  kind: 'cnn' | 'nn';
  out: string;
}

let data: TrainingData | undefined;
let dataDir: string | undefined;

process.on('message', (message: TrainMessage | { type: 'exit' }) => {
  if (message.type === 'exit') {
    process.disconnect?.();
    return;
  }
  const started = Date.now();
  if (data === undefined || dataDir !== message.dataDir) {
    data = loadTrainingData(message.dataDir);
    dataDir = message.dataDir;
  }
  const leftOut = new Set(message.leftOut);
  const config = { ...DEFAULT_CONFIG, kind: message.kind };
  const set = trainingSet(data, config, leftOut);
  const model = trainModel(set, data.words, { leftOut: message.leftOut, dgaTrainLabels: set.dgaTrain.length }, config);
  const tmp = `${message.out}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(model.file));
  renameSync(tmp, message.out);
  process.send!({ type: 'trained', leftOut: message.leftOut, seconds: Math.round((Date.now() - started) / 1000) });
});

process.send!({ type: 'ready' });
