/** Opens the prompt library over its tables. Composition root only. */
import type { AppContext } from '../../app-context';
import { PromptsService } from './prompts-service';

export type PromptsDeps = Pick<AppContext, 'db' | 'dialogs' | 'emit'>;

export function openPrompts(deps: PromptsDeps): Promise<PromptsService> {
  return PromptsService.open({
    db: deps.db,
    dialogs: deps.dialogs,
    onChange: () => deps.emit('promptsChanged', null),
  });
}
