import torch


class ScanDataset(torch.utils.data.Dataset):
    """Crops of varying height; shorter crops are padded to the canvas size."""

    def __init__(self, n=40, canvas=32, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for i in range(n):
            h = canvas if i < 24 else int(torch.randint(16, canvas, (1,), generator=g)) // 8 * 8
            img = torch.randn(3, h, canvas, generator=g)
            label = int(torch.randint(0, 4, (1,), generator=g))
            self.items.append((img, label))
        self.canvas = canvas

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def make_collate(canvas, patch_size):
    def collate(batch):
        imgs = torch.zeros(len(batch), 3, canvas, canvas)
        mask = torch.zeros(len(batch), canvas // patch_size, canvas // patch_size, dtype=torch.bool)
        for k, (img, _) in enumerate(batch):
            h = img.shape[1]
            imgs[k, :, :h] = img
            mask[k, : h // patch_size] = True
        labels = torch.tensor([lab for _, lab in batch])
        return imgs, mask, labels
    return collate
