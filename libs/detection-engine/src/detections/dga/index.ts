export { CharLanguageModel, LABEL_ALPHABET } from './char-language-model';
export { DgaModel, DEFAULT_DGA_MODEL_PATH } from './dga-model';
export type { DgaModelFile } from './dga-model';
export { assessDga, defaultDgaModel, dgaScore } from './dga-score';
export type { DgaAssessment } from './dga-score';
export { createDgaDetector, DEFAULT_DGA_VOLUME_OPTIONS, DGA_VOLUME, DgaVolumeDetector } from './dga-volume';
export type { DgaVolumeOptions } from './dga-volume';
export { registrableLabel } from './registrable-label';
export type { RegistrableLabel } from './registrable-label';
