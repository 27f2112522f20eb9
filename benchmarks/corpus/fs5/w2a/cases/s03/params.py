# dataset
batch_size = 16
image_size = 28
num_classes = 10

# training
epochs = 2
steps_per_epoch = 6
lr = 0.01
momentum = 0.9
gamma = -10
theta = 1

seed = 5
