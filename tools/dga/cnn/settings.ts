/** Settings of the DGA character CNN's trainer (options of tools/dga/cnn/train_cnn.py). */
export interface CnnSettings {
  epochs: number;
  batch: number;
  lr: number;
  weightDecay: number;
  widths: number[];
  filters: number;
  embedding: number;
  hidden: number;
  dropout: number;
  seed: number;
}

export const DEFAULT_CNN_SETTINGS: CnnSettings = {
  epochs: 6,
  batch: 256,
  lr: 3e-3,
  weightDecay: 1e-4,
  widths: [2, 3, 4],
  filters: 16,
  embedding: 16,
  hidden: 16,
  dropout: 0.2,
  seed: 7,
};
