import { Injectable } from '@nestjs/common';
import type { FlagDictionary, ThreatDictionary } from '@vigil/contracts';
import { FLAG_DICTIONARY, THREAT_DICTIONARY } from '@vigil/detection-engine';

/** The inventory the rules service serves: the built-in analytics' threats and flags. */
@Injectable()
export class InventoryService {
  threats(): ThreatDictionary {
    return THREAT_DICTIONARY;
  }

  flags(): FlagDictionary {
    return FLAG_DICTIONARY;
  }
}
