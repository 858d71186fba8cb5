// The live table: drawn once from the server's snapshot, then changed only by the batches of
// the fetched results controller's reports, applied as UITableView applies a batch update.
'use strict';

// Counters the browser test reads: loads of this page in this tab (sessionStorage outlives
// a reload, so a reload shows as 2), batches applied, and batches that did not fit the table.
const loads = Number(sessionStorage.getItem('webtable.loads') || 0) + 1;
sessionStorage.setItem('webtable.loads', String(loads));
window.pageLoads = loads;
window.tableReady = false;
window.appliedBatches = 0;
window.batchErrors = [];
window.serverErrors = [];

const table = document.getElementById('table');
const statusLine = document.getElementById('status');
const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/live`);

function showStatus(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle('error', isError);
}

// MARK: Drawing rows and sections

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function fillRow(row, team) {
  row.dataset.team = team.name;
  row.replaceChildren(
    element('span', 'name', team.name),
    element('span', 'wins', String(team.wins)),
    element('span', 'unit', team.wins === 1 ? 'win' : 'wins'),
    Object.assign(element('button', 'tap', '+1 win'), { type: 'button' }),
    Object.assign(element('button', 'delete', 'Delete'), { type: 'button' }),
  );
}

function newRow(team) {
  const row = element('li', 'team');
  fillRow(row, team);
  return row;
}

function newSection(name) {
  const section = element('section', 'zone');
  section.dataset.zone = name;
  section.append(element('h2', null, name), element('ol'));
  return section;
}

// MARK: Index paths to elements; a path that is not in the table is an error, never ignored.

function sectionAt(index) {
  const section = table.children[index];
  if (!section) throw new Error(`no section ${index}`);
  return section;
}

function rowsOf(sectionIndex) {
  return sectionAt(sectionIndex).querySelector('ol');
}

function rowAt(place) {
  const row = rowsOf(place.section).children[place.row];
  if (!row) throw new Error(`no row ${place.row} in section ${place.section}`);
  return row;
}

function insertAt(parent, index, child) {
  if (index > parent.children.length) throw new Error(`cannot insert at ${index} of ${parent.children.length}`);
  parent.insertBefore(child, parent.children[index] || null);
}

const byPlace = (a, b) => a.section - b.section || a.row - b.row;

// MARK: The snapshot and the batches

function showSnapshot(sections) {
  table.replaceChildren(...sections.map((section) => {
    const node = newSection(section.name);
    node.querySelector('ol').append(...section.rows.map(newRow));
    return node;
  }));
  window.tableReady = true;
}

// A move is a delete at its old place and an insert at its new one. Deletes use the index paths
// of the table before the batch, so they run back to front, rows before sections: each removal
// leaves the indexes still to remove as they were. Inserts use the index paths of the table
// after the batch, so they run front to back, sections before rows: each insertion finds the
// elements before it already in place. Updates then redraw rows at their new places.
function applyBatch(batch) {
  const rowDeletes = [];
  const rowInserts = [];
  const rowUpdates = [];
  for (const change of batch.rows) {
    switch (change.type) {
      case 'delete': rowDeletes.push(change.from); break;
      case 'insert': rowInserts.push(change); break;
      case 'move': rowDeletes.push(change.from); rowInserts.push(change); break;
      case 'update': rowUpdates.push(change); break;
      default: throw new Error(`unknown row change ${change.type}`);
    }
  }
  const sectionDeletes = batch.sections.filter((change) => change.type === 'delete').map((change) => change.index);
  const sectionInserts = batch.sections.filter((change) => change.type === 'insert');

  rowDeletes.sort(byPlace).reverse().forEach((place) => rowAt(place).remove());
  sectionDeletes.sort((a, b) => b - a).forEach((index) => sectionAt(index).remove());
  sectionInserts.sort((a, b) => a.index - b.index).forEach((change) => insertAt(table, change.index, newSection(change.name)));
  rowInserts.sort((a, b) => byPlace(a.to, b.to)).forEach((change) => {
    const row = newRow(change.team);
    row.classList.add('changed');
    insertAt(rowsOf(change.to.section), change.to.row, row);
  });
  rowUpdates.forEach((change) => {
    const row = rowAt(change.to || change.from);
    fillRow(row, change.team);
    row.classList.add('changed');
  });
}

socket.addEventListener('open', () => showStatus('Connected.'));
socket.addEventListener('close', () => showStatus('Disconnected from the server: reload the page to reconnect.', true));
socket.addEventListener('message', (event) => {
  const message = JSON.parse(event.data);
  switch (message.kind) {
    case 'snapshot':
      // Once per connection: the table before any batch this page will get.
      if (window.tableReady) throw new Error('a second snapshot');
      showSnapshot(message.sections);
      break;
    case 'batch':
      try {
        applyBatch(message);
        window.appliedBatches += 1;
      } catch (error) {
        // The table no longer matches the server's: say so rather than show a wrong table quietly.
        window.batchErrors.push(`batch ${message.number}: ${error.message}`);
        showStatus(`The table is out of step (${error.message}): reload the page.`, true);
      }
      break;
    case 'error':
      window.serverErrors.push(message.message);
      showStatus(message.message, true);
      break;
  }
});

// MARK: Commands

function send(command) {
  if (socket.readyState !== WebSocket.OPEN) {
    showStatus('Not connected: reload the page.', true);
    return;
  }
  socket.send(JSON.stringify(command));
}

// One listener for every row's buttons, present and future.
table.addEventListener('click', (event) => {
  const button = event.target.closest('button');
  const row = button && button.closest('li.team');
  if (!row) return;
  if (button.classList.contains('tap')) send({ action: 'tap', team: row.dataset.team });
  if (button.classList.contains('delete')) send({ action: 'delete', team: row.dataset.team });
});

document.getElementById('add-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.target;
  send({ action: 'add', team: form.team.value.trim(), zone: form.zone.value.trim() });
  form.reset();
});
