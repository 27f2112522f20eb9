import random

import torch
from torch.utils.data import Dataset


class SiameseDigits(Dataset):
    """
    Train: for each sample randomly chooses a positive or a negative partner
    Test: fixed pairs
    """

    def __init__(self, images, labels, train=True, seed=0):
        self.images = images
        self.labels = labels
        self.train = train
        self.labels_set = sorted(set(labels.tolist()))
        self.label_to_indices = {label: (labels == label).nonzero().flatten().tolist()
                                 for label in self.labels_set}
        self.rng = random.Random(seed)

    def __getitem__(self, index):
        target = self.rng.randint(0, 1)
        img1, label1 = self.images[index], self.labels[index].item()
        if target == 1:
            siamese_index = self.rng.choice(self.label_to_indices[label1])
        else:
            siamese_label = self.rng.choice([l for l in self.labels_set if l != label1])
            siamese_index = self.rng.choice(self.label_to_indices[siamese_label])
        img2 = self.images[siamese_index]
        return (img1, img2), target

    def __len__(self):
        return len(self.labels)


def make_digits(n_per_class, n_classes, generator):
    prototypes = torch.randn(n_classes, 1, 28, 28, generator=generator)
    images, labels = [], []
    for c in range(n_classes):
        noise = 0.3 * torch.randn(n_per_class, 1, 28, 28, generator=generator)
        images.append(prototypes[c] + noise)
        labels.append(torch.full((n_per_class,), c, dtype=torch.long))
    return torch.cat(images), torch.cat(labels)
