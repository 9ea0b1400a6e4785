/**
 * The document's description, collapsed to its first block until asked for: a long one (the
 * Petstore's, with its tables of errors and of stock, runs to about 2,000 px) otherwise pushes
 * the operations below the first screen. Wraps Swagger UI's `info` component (title, version,
 * description, contact, licence), which renders all of it; while collapsed, a rule of
 * docs-ui.css (`.mock-info-collapsed`) hides the description's blocks after the first, and a
 * button below shows them. A description of one block is left as it is, with no button.
 */
import type { Component, System } from './swagger-ui.js';

/** The wrapper of `info`, for the plugin's `wrapComponents`. */
export function collapsibleDescription(Original: unknown, system: System): Component<Record<string, unknown>> {
  const { React } = system;
  return function MockInfo(props) {
    const [open, setOpen] = React.useState(false);
    const [long, setLong] = React.useState(false);
    // Read from what Swagger UI rendered: more than one block (paragraph, heading, table) below the description.
    const measure = (element: HTMLElement | null) => {
      if (element) setLong((element.querySelector('.description .renderedMarkdown')?.childElementCount ?? 0) > 1);
    };
    return React.createElement(
      'div',
      { ref: measure, className: long && !open ? 'mock-info mock-info-collapsed' : 'mock-info' },
      React.createElement(Original, props),
      long ? React.createElement('button', { type: 'button', className: 'mock-info-toggle', 'aria-expanded': open, onClick: () => setOpen(!open) }, open ? 'Show less of the description' : 'Show the whole description') : null,
    );
  };
}
