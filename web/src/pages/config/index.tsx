// Config Studio: the manifest (.hub.yml) and the application config (hub.config.yaml), each with its schema tree,
// a field editor, the YAML in three preview styles (or as text to edit), and a draft of pending operations.
// The two files are switchable panes (tabs at /config/manifest and /config/appconfig); each keeps its own draft.
import { useLocation } from 'wouter';
import type { ConfigTarget } from '../../api/config-studio';
import { Badge } from '../../components/badge';
import { Tabs } from '../../components/tabs';
import { useDrafts } from './draft';
import { FileStudio } from './file-studio';
import './config.css';

const FILES: Record<ConfigTarget, { path: string; name: string; file: string }> = {
  hub: { path: '/manifest', name: 'Manifest', file: '.hub.yml' },
  appconfig: { path: '/appconfig', name: 'Application config', file: 'hub.config.yaml' },
};

export default function ConfigPage() {
  const [location, navigate] = useLocation();
  const target: ConfigTarget = location.startsWith('/appconfig') ? 'appconfig' : 'hub';
  const draft = useDrafts();
  const tabs = (['hub', 'appconfig'] as const).map((id) => ({
    id,
    label: (
      <>
        {FILES[id].name} <code>{FILES[id].file}</code>
        {draft.drafts[id].length > 0 && (
          <Badge tone="warn" title={`${draft.drafts[id].length} pending operation(s)`}>
            {draft.drafts[id].length}
          </Badge>
        )}
      </>
    ),
  }));
  const pane = (
    <FileStudio
      key={target}
      target={target}
      fileName={FILES[target].file}
      ops={draft.drafts[target]}
      onAdd={(ops) => draft.add(target, ops)}
      onUndo={(i) => draft.undo(target, i)}
      onDiscard={() => draft.discard(target)}
    />
  );
  return (
    <section className="studio">
      <h1>Config Studio</h1>
      <Tabs tabs={tabs} value={target} onChange={(id) => navigate(FILES[id].path)} label="File">
        {pane}
      </Tabs>
    </section>
  );
}
