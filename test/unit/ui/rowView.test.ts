import * as assert from 'assert';
import { LoadMoreNode, loadMoreView, rowLook } from '../../../src/ui/rowView';

describe('row views: what is compared between two draws', () => {
  it('a row whose click takes its own row (Load more: the row holds its listing, which holds the row) is compared by what it shows', () => {
    const group: { id: string; more?: LoadMoreNode<{ id: string }> } = { id: 'group:COMPLETED' };
    const more = new LoadMoreNode(group);
    group.more = more;
    const view = (left: number) => loadMoreView({ left, loading: false, error: undefined }, { command: 'sevenbridges.tasks.loadMore', title: 'Load More', args: [more] });
    assert.strictEqual(rowLook(view(50)), rowLook(view(50)));
    assert.notStrictEqual(rowLook(view(50)), rowLook(view(49)), 'its words changed');
  });
});
